//: # Collections
//: A collection keeps models in order and finds them by id or client id in O(1).
import Keel

let notes = Collection<Note>(comparator: .attribute("rank"))
var events: [String] = []
notes.on("add remove sort update") { event in events.append(event.name) }
notes.add([["id": 1, "title": "Taxes", "rank": 2], ["id": 2, "title": "Groceries", "rank": 1]])
precondition(notes.map(\.id) == [2, 1])
precondition(events == ["add", "add", "sort", "update"])
//: `get` takes an id or a client id.
let taxes = notes.get(1)
precondition(taxes?["title"] == "Taxes")
precondition(notes.get(.string(taxes?.cid ?? "")) === taxes)
//: `Collection` is a Swift `RandomAccessCollection`: `map`, `filter` and friends just work.
precondition(notes.filter { $0["rank"] == 1 }.count == 1)
precondition(notes.pluck("title") == ["Groceries", "Taxes"])
precondition(notes.findWhere(["title": "Taxes"]) === taxes)
//: `set` merges by id, adds what is new and removes what is missing, in one `update`.
events.removeAll()
notes.set([["id": 1, "title": "Taxes 2026", "rank": 2], ["id": 3, "title": "Garden", "rank": 0]])
precondition(notes.map(\.id) == [3, 1])
precondition(taxes?["title"] == "Taxes 2026")
precondition(events == ["remove", "add", "sort", "update"])
//: Model events bubble up to the collection.
var retitled = 0
notes.on("change:title") { _ in retitled += 1 }
taxes?["title"] = "Taxes (filed)"
precondition(retitled == 1)
//: [Next](@next)
