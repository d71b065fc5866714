//: # Testing
//: Tests need no server: `InMemorySync` answers as a REST server does, records every
//: request and fails on request. This page checks with `precondition` what a Swift Testing
//: test checks with `#expect`; the article *Testing Models and Backends* has the tests.
import Keel

//: ## Validation
//: A rejected change returns `false`, keeps the old value and sets `validationError`.
//: `fullMessages` names attributes as Rails does.
let note = Note(["title": "Short"])
let accepted = note.set("title", .string(String(repeating: "x", count: 50)))
precondition(!accepted && note["title"] == "Short")
precondition(note.validationError?["title"] == ["is too long (maximum is 40 characters)"])
precondition(note.validationError?.fullMessages == ["Title is too long (maximum is 40 characters)"])
let dated: ValidationError = ["dueDate": ["has wrong format"], "authorID": ["must exist"]]
precondition(dated.fullMessages == ["Author must exist", "Due date has wrong format"])
precondition(dated.fullMessages(attributeNames: ["dueDate": "Deadline"]).last == "Deadline has wrong format")
//: ## Events
//: Events are synchronous, so a test records names with an `all` handler and compares them.
let notes = Collection<Note>(url: "/notes")
var names: [String] = []
notes.on("all") { event in names.append(event.name) }
notes.add(["title": "Milk"])
precondition(names == ["add", "update"])
//: ## Requests
//: `requests` keeps every request, `records(at:)` what the store holds.
let backend = InMemorySync()
notes.reset()
notes.sync = backend
let milk = try await notes.create(["title": "Milk"])
precondition(milk.id == 1)
precondition(backend.requests.map(\.method) == [.create])
precondition(backend.records(at: "/notes") == [["title": "Milk", "done": false, "id": 1]])
//: ## Failures
//: `failNext(with:)` fails the next request. With `wait: true` a refused note is never
//: added; without it, the note stays in the collection without an id, as in Backbone.
backend.failNext(with: .validationFailed(["title": ["has already been taken"]], status: 422))
do {
    _ = try await notes.create(["title": "Milk"], wait: true)
    preconditionFailure("the create should have failed")
} catch {
    precondition(error.status == 422 && notes.count == 1)
}
backend.failNext(with: .transport("The network connection was lost"))
do {
    _ = try await notes.create(["title": "Bread"])
    preconditionFailure("the create should have failed")
} catch {
    precondition(notes.count == 2 && notes.last?.isNew == true)
}
//: `failWhen` fails every request a rule picks.
let readOnly = InMemorySync(failWhen: { $0.method == .read ? nil : .httpStatus(405, body: nil) })
let locked = Collection<Note>(url: "/notes", sync: readOnly)
do {
    _ = try await locked.create(["title": "Eggs"], wait: true)
    preconditionFailure("the create should have failed")
} catch {
    precondition(error.status == 405 && locked.isEmpty)
}
//: ## Printing
//: A value prints as a person reads it; `debugDescription` keeps the JSON text.
precondition("\(milk["title"] ?? "")" == "Milk")
precondition(milk["title"]?.debugDescription == "\"Milk\"")
let title = AttributeKey<String>("title")
precondition(notes.pluck(title) == ["Milk", "Bread"])   // [String?], one per note
//: [Next](@next)
