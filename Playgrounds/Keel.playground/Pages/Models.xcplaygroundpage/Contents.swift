//: # Models
//: A model holds attributes: an ordered dictionary of JSON values.
import Keel

let note = Note(["title": "Groceries", "tags": ["home"]])
precondition(note["title"] == "Groceries")
//: Defaults fill in what you leave out.
precondition(note["done"] == false)
//: Every model has a client id, and an id once it is saved.
precondition(note.cid.hasPrefix("c"))
precondition(note.isNew && note.id == nil)
//: `set` changes attributes; the model remembers what changed.
note.set(["title": "Weekly groceries", "done": true])
precondition(note.changed == ["title": "Weekly groceries", "done": true])
precondition(note.previous("title") == "Groceries")
precondition(note.hasChanged("done"))
//: `unset` removes an attribute; `has` is false for absent and null values.
note.unset("tags")
precondition(!note.has("tags"))
//: Setting the id attribute makes the model "not new".
note["id"] = 7
precondition(!note.isNew && note.id == 7)
//: Numbers compare by value, so this is not a change.
note.set(["id": 7.0])
precondition(!note.hasChanged())
//: [Next](@next)
