"""Thread-safe in-memory storage for notes, todos and users."""

import copy
import threading


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.reset()

    def reset(self):
        with self.lock:
            self.notes = {}  # int id -> record dict
            self.next_note_id = 1
            self.users = {}  # str id -> record dict (insertion ordered)
            self.todos = {}  # int id -> record dict
            self.next_todo_id = 1

    # Notes ------------------------------------------------------------------

    def list_notes(self):
        with self.lock:
            return [copy.deepcopy(self.notes[k]) for k in sorted(self.notes)]

    def get_note(self, note_id):
        with self.lock:
            note = self.notes.get(note_id)
            return copy.deepcopy(note) if note is not None else None

    def create_note(self, fields):
        with self.lock:
            note_id = self.next_note_id
            self.next_note_id += 1
            record = {"id": note_id, **copy.deepcopy(fields)}
            self.notes[note_id] = record
            return copy.deepcopy(record)

    def update_note(self, note_id, fields):
        with self.lock:
            if note_id not in self.notes:
                return None
            self.notes[note_id].update(copy.deepcopy(fields))
            return copy.deepcopy(self.notes[note_id])

    def delete_note(self, note_id):
        with self.lock:
            return self.notes.pop(note_id, None) is not None

    # Todos (the `todos` example app) -------------------------------------------

    def list_todos(self):
        with self.lock:
            return [copy.deepcopy(self.todos[k]) for k in sorted(self.todos)]

    def get_todo(self, todo_id):
        with self.lock:
            todo = self.todos.get(todo_id)
            return copy.deepcopy(todo) if todo is not None else None

    def create_todo(self, fields):
        with self.lock:
            todo_id = self.next_todo_id
            self.next_todo_id += 1
            record = {"id": todo_id, **copy.deepcopy(fields)}
            self.todos[todo_id] = record
            return copy.deepcopy(record)

    def update_todo(self, todo_id, fields):
        with self.lock:
            if todo_id not in self.todos:
                return None
            self.todos[todo_id].update(copy.deepcopy(fields))
            return copy.deepcopy(self.todos[todo_id])

    def delete_todo(self, todo_id):
        with self.lock:
            return self.todos.pop(todo_id, None) is not None

    # Users ------------------------------------------------------------------

    def list_users(self):
        with self.lock:
            return [copy.deepcopy(u) for u in self.users.values()]

    def get_user(self, user_id):
        with self.lock:
            user = self.users.get(user_id)
            return copy.deepcopy(user) if user is not None else None

    def has_user(self, user_id):
        with self.lock:
            return user_id in self.users

    def put_user(self, record):
        with self.lock:
            self.users[record["id"]] = copy.deepcopy(record)
            return copy.deepcopy(record)

    def update_user(self, user_id, fields):
        with self.lock:
            if user_id not in self.users:
                return None
            self.users[user_id].update(copy.deepcopy(fields))
            self.users[user_id]["id"] = user_id
            return copy.deepcopy(self.users[user_id])

    def delete_user(self, user_id):
        with self.lock:
            return self.users.pop(user_id, None) is not None


STORE = Store()
