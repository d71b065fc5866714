//: # Event streams
//: `events(_:)` offers an emitter's events as an `AsyncSequence`, for `for await` loops.
//: Make the stream *before* the events you want to hear happen: a stream buffers events
//: from the moment `events` returns, and knows nothing of earlier ones.
import Keel

let notes = Collection<Note>(url: "/notes", sync: InMemorySync())
let added = notes.events("add")
try await notes.create(["title": "Groceries"])
try await notes.create(["title": "Taxes"])
var titles: [String] = []
for await event in added {
    titles.append(event.model?["title"]?.stringValue ?? "")
    if titles.count == 2 { break }
}
precondition(titles == ["Groceries", "Taxes"])
//: Several names, separated by spaces, share one stream, in the order the events happen.
let membership = notes.events("add remove")
notes.add(["title": "Laundry"])
notes.remove(notes[0])
var names: [String] = []
for await event in membership {
    names.append(event.name)
    if names.count == 2 { break }
}
precondition(names == ["add", "remove"])
//: To listen while the code goes on, make the stream first and then start the task that
//: iterates it. (A stream made inside the task would only exist once the task runs, after
//: the changes below.)
let note = notes[0]
let titleChanges = note.events("change:title")
let listener = Task {
    var seen: [String] = []
    for await event in titleChanges {
        seen.append(event.value?.stringValue ?? "")
        if seen.count == 2 { break }
    }
    return seen
}
note["title"] = "Tax return"
note["title"] = "Tax return 2026"
let seen = await listener.value
precondition(seen == ["Tax return", "Tax return 2026"])
//: Cancelling the iterating task ends its loop, like the emitter going away does.
let everything = notes.events("all")
let counter = Task {
    var count = 0
    for await _ in everything { count += 1 }
    return count
}
counter.cancel()
let counted = await counter.value
precondition(counted == 0)
//: [Next](@next)
