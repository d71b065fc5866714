//: # Events
//: Models emit `change:<attribute>` for each changed attribute, then one `change`.
import Keel

let note = Note(["title": "Draft"])
var log: [String] = []
let subscription = note.on("all") { event in log.append(event.name) }
note.set(["title": "Final", "done": true])
precondition(log == ["change:title", "change:done", "change"])
//: Handlers get the new value; `previous` tells the old one.
var titles: [String] = []
note.on("change:title") { event in
    titles.append("\(note.previous("title")?.stringValue ?? "") -> \(event.value?.stringValue ?? "")")
}
note["title"] = "Published"
precondition(titles == ["Final -> Published"])
//: `silent` changes fire nothing.
log.removeAll()
note.set(["title": "Quiet"], silent: true)
precondition(log.isEmpty)
//: Cancel a subscription with its token; `once` handlers remove themselves.
subscription.cancel()
var syncs = 0
note.once("custom") { _ in syncs += 1 }
note.trigger("custom")
note.trigger("custom")
precondition(syncs == 1)
//: `listenTo` keeps track of what an emitter listens to, so `stopListening` can undo it.
let inspector = EventEmitter()
var heard = 0
inspector.listenTo(note, "change") { _ in heard += 1 }
note["done"] = false
inspector.stopListening()
note["done"] = true
precondition(heard == 1)
//: [Next](@next)
