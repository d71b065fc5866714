//: # Store
//: A `Store` is one object for an app's data: a backend, an identity map (one instance per
//: record) and live queries that follow every change of the models it holds.
import Keel

let backend = InMemorySync(records: [
    "/notes": [["id": 1, "title": "Taxes", "done": false], ["id": 2, "title": "Milk", "done": true]]
])
let store = Store(sync: backend)
//: A live query: the open notes, by title. It starts with what the store holds (nothing yet)
//: and follows every change from then on.
let open = store.query(Note.self, filter: .attribute("done", equals: false), sort: .attribute("title"))
var events: [String] = []
open.on("add remove sort") { event in events.append("\(event.name) \(event.model?["title"] ?? "-")") }
precondition(open.isEmpty)
//: A fetch through the store's collection loads records the store then holds.
try await store.collection(Note.self).fetch()
precondition(open.map { $0["title"] } == ["Taxes"])
//: Creating shows the new note at once, in sort order; one record is one instance.
let bread = try await store.create(Note.self, ["title": "Bread"])
precondition(open.map { $0["title"] } == ["Bread", "Taxes"])
precondition(store.peek(Note.self, id: bread.id ?? nil) === bread)
//: A change anywhere moves the model in every query: done notes leave, a renamed one moves.
bread["done"] = true
store.peek(Note.self, id: 2)?["done"] = false
precondition(open.map { $0["title"] } == ["Milk", "Taxes"])
store.peek(Note.self, id: 1)?["title"] = "Accounts"
precondition(open.map { $0["title"] } == ["Accounts", "Milk"])
precondition(events == ["add Taxes", "add Bread", "remove Bread", "add Milk", "sort -"])
//: A window of the results: `offset` and `limit`, kept up to date too.
let firstOnly = store.query(Note.self, filter: .attribute("done", equals: false), sort: .attribute("title"), limit: 1)
precondition(firstOnly.map { $0["title"] } == ["Accounts"])
store.peek(Note.self, id: 1)?["done"] = true
precondition(firstOnly.map { $0["title"] } == ["Milk"])
//: [Next](@next)
