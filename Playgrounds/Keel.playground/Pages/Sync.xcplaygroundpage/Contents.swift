//: # Sync
//: Models and collections load and save through a `Sync` backend. `InMemorySync` is a
//: complete REST store in memory, for previews and tests.
import Keel

let backend = InMemorySync()
let notes = Collection<Note>(url: "/notes", sync: backend)
var log: [String] = []
notes.on("request sync add") { event in log.append(event.name) }

let groceries = try await notes.create(["title": "Groceries"])
precondition(groceries.id == 1)
precondition(try groceries.url() == "/notes/1")
//: Saving an existing model sends an update; `patch` sends only the changes.
try await groceries.save(["done": true], patch: true)
precondition(backend.requests.last?.method == .patch)
precondition(backend.requests.last?.body == ["done": true])
//: A second collection fetches what the first one saved.
let other = Collection<Note>(url: "/notes", sync: backend)
try await other.fetch()
precondition(other.get(1)?["done"] == true)
//: Failures are typed and also emitted as `error`.
backend.failNext(with: .httpStatus(500, body: nil))
do {
    try await groceries.fetch()
    preconditionFailure("the fetch should fail")
} catch let error as SyncError {
    precondition(error.status == 500)
}
//: Invalid models are never sent.
let requestsBefore = backend.requests.count
do {
    try await groceries.save(["title": String(repeating: "x", count: 50)])
    preconditionFailure("the save should be rejected")
} catch SyncError.validationFailed(let errors, status: nil) {
    precondition(errors["title"].count == 1)
}
precondition(backend.requests.count == requestsBefore)
//: Destroying removes the model from its collection.
try await groceries.destroy()
precondition(notes.isEmpty)
