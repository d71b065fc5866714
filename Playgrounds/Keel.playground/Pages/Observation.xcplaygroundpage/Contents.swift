//: # Observation
//: Models and collections are `Observable`. Reading an attribute tracks that attribute
//: only, so a SwiftUI view that shows `note["title"]` is redrawn when the title changes,
//: not when `done` does. `withObservationTracking` shows what SwiftUI sees: its
//: `onChange` runs once, before the first change to anything the closure read.
import Keel
import Observation

let note = Note(["title": "Draft", "done": false])
var titleChanges = 0
withObservationTracking {
    _ = note["title"]
} onChange: {
    // `onChange` is `@Sendable`; these changes happen on the main actor.
    MainActor.assumeIsolated { titleChanges += 1 }
}
note["done"] = true
precondition(titleChanges == 0)
note["title"] = "Final"
precondition(titleChanges == 1)
//: Tracking is one-shot, as in SwiftUI, which tracks again each time it redraws.
note["title"] = "Published"
precondition(titleChanges == 1)
//: Setting a value equal to the current one is no change, and notifies no one.
var doneChanges = 0
withObservationTracking {
    _ = note["done"]
} onChange: {
    MainActor.assumeIsolated { doneChanges += 1 }
}
note["done"] = true
precondition(doneChanges == 0)
//: A collection tracks which models it holds and their order: `count`, iteration,
//: `at`, subscripts and `models`. Changing an attribute of a model does not change that.
let notes = Collection<Note>([["id": 1, "title": "Milk"]])
var membershipChanges = 0
withObservationTracking {
    _ = notes.count
} onChange: {
    MainActor.assumeIsolated { membershipChanges += 1 }
}
notes.get(1)?["title"] = "Oat milk"
precondition(membershipChanges == 0)
notes.add(["id": 2, "title": "Bread"])
precondition(membershipChanges == 1)
//: A list reads the models and then each model's attributes, so it hears about both.
var listChanges = 0
withObservationTracking {
    _ = notes.map { $0["title"] }
} onChange: {
    MainActor.assumeIsolated { listChanges += 1 }
}
notes.get(2)?["title"] = "Rye bread"
precondition(listChanges == 1)
//: [Next](@next)
