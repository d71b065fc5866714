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
let url = try groceries.url()
precondition(url == "/notes/1")
//: Saving an existing model sends an update; `patch` sends only the changes.
try await groceries.save(["done": true], patch: true)
precondition(backend.requests.last?.method == .patch)
precondition(backend.requests.last?.body == ["done": true])
//: A second collection fetches what the first one saved.
let other = Collection<Note>(url: "/notes", sync: backend)
try await other.fetch()
precondition(other.get(1)?["done"] == true)
//: Failures are typed and also emitted as `error`.
func failure(of operation: () async throws -> Void) async -> SyncError? {
    do {
        try await operation()
        return nil
    } catch {
        return error as? SyncError
    }
}
backend.failNext(with: .httpStatus(500, body: nil))
let fetchFailure = await failure { try await groceries.fetch() }
precondition(fetchFailure?.status == 500)
//: Invalid models are never sent.
let requestsBefore = backend.requests.count
let saveFailure = await failure { try await groceries.save(["title": .string(String(repeating: "x", count: 50))]) }
guard case .validationFailed(let errors, status: nil)? = saveFailure else {
    preconditionFailure("expected a rejection")
}
precondition(errors["title"].count == 1)
precondition(backend.requests.count == requestsBefore)
//: Destroying removes the model from its collection.
try await groceries.destroy()
precondition(notes.isEmpty)
//: [Next](@next)
