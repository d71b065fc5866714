//: # Keeping up with the server
//: A store learns of the server's changes by pulling what changed since a cursor, or by
//: listening to a push source. Both bring `RemoteChange`s, applied through the identity
//: map with the usual events, each record's changes once and in version order.
import Keel

let backend = InMemorySync(records: [
    "/notes": [
        ["id": 1, "title": "Taxes", "updated_at": "2026-05-01T09:00:00Z"],
        ["id": 2, "title": "Milk", "updated_at": "2026-05-01T09:30:00Z"],
    ]
])
let store = Store(sync: backend)
let notes = store.query(Note.self, sort: .attribute("title"))
var events: [String] = []
notes.on("add remove") { event in events.append("\(event.name) \(event.model?["title"] ?? "-")") }
//: The first pull reads everything; the cursor is the newest `updated_at` it saw.
let first = try await store.pull(Note.self, using: .rails)
precondition(first.wasFullFetch && first.cursor == "2026-05-01T09:30:00Z")
precondition(notes.map { $0["title"] } == ["Milk", "Taxes"])
//: A push source sends changes as they happen. `InMemoryPushSource` lives in the process,
//: for tests, previews and playgrounds; `ServerSentEventSource` reads a server's
//: `text/event-stream` the same way.
let pushes = InMemoryPushSource()
let listening = Task { @MainActor in try await store.listen(Note.self, to: pushes) }
while !pushes.hasListeners { await Task.yield() }
pushes.send(RemoteChange(.created, id: 3, attributes: ["id": 3, "title": "Bread", "updated_at": "2026-05-01T10:00:00Z"], version: "2026-05-01T10:00:00Z"))
pushes.send(RemoteChange(.deleted, id: 1, version: "2026-05-01T10:05:00Z"))
while notes.count != 2 || store.peek(Note.self, id: 3) == nil { await Task.yield() }
precondition(notes.map { $0["title"] } == ["Bread", "Milk"])
//: A change that arrives late (an older version) is skipped.
pushes.send(RemoteChange(.updated, id: 3, attributes: ["id": 3, "title": "Stale"], version: "2026-05-01T09:00:00Z"))
pushes.send(RemoteChange(.updated, id: 2, attributes: ["id": 2, "title": "Oat milk"], version: "2026-05-01T10:10:00Z"))
while store.peek(Note.self, id: 2)?["title"] != "Oat milk" { await Task.yield() }
precondition(store.peek(Note.self, id: 3)?["title"] == "Bread")
listening.cancel()
precondition(events == ["add Taxes", "add Milk", "add Bread", "remove Taxes"])
