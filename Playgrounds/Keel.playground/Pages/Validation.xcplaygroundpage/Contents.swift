//: # Validation
//: `validate` runs on every change; an invalid change is rejected as a whole.
import Keel

let note = Note(["title": "Short"])
var errors: [String] = []
note.on("error") { event in errors.append(contentsOf: event.validationError?.fullMessages ?? []) }
let accepted = note.set(["title": .string(String(repeating: "x", count: 50))])
precondition(!accepted)
precondition(note["title"] == "Short")
precondition(errors == ["Title is too long (maximum is 40 characters)"])
precondition(note.validationError?["title"] == ["is too long (maximum is 40 characters)"])
//: A validation-error handler in the options replaces the events (ISModel's style).
var handled: ValidationError?
note.set(
    ["title": .string(String(repeating: "y", count: 50))],
    options: ChangeOptions(onValidationError: { _, error, _ in handled = error })
)
precondition(handled != nil && errors.count == 1)
//: `silent` rejects without reporting; `validate: false` skips validation for one call.
note.set(["title": .string(String(repeating: "z", count: 50))], silent: true)
precondition(note["title"] == "Short" && errors.count == 1)
note.set(["title": .string(String(repeating: "z", count: 50))], validate: false)
precondition(!note.isValid())
//: [Next](@next)
