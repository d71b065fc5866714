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
//: Typed names are checked by the compiler; `.change(key)` names one attribute's change.
let title = AttributeKey<String>("title")
var typed: [String] = []
note.on(.change(title)) { event in typed.append(event.name) }
note.on([.sync, .destroy]) { event in typed.append(event.name) }
note[title] = "Typed"
note.trigger(.sync)
precondition(typed == ["change:title", "sync"])
//: Any object can listen: keep an `EventListener` in a property. When the object goes away,
//: its listener does, and the note drops every handler it registered.
final class TitleLabel {
    let listener = EventListener()
    var text = ""

    init(note: Note) {
        listener.listenTo(note, .change(title)) { [weak self] event in
            self?.text = event.value?.stringValue ?? ""
        }
    }
}
weak var weakLabel: TitleLabel?
do {
    let label = TitleLabel(note: note)
    weakLabel = label
    note[title] = "Shown"
    precondition(label.text == "Shown")
}
precondition(weakLabel == nil)
//: [Next](@next)
