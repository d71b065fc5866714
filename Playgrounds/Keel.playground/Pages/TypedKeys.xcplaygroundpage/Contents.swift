//: # Typed keys
//: An `AttributeKey` pairs an attribute's name with its Swift type, so that reading and
//: writing need no `JSONValue` conversions. Declare the keys once, next to the model.
import Keel

extension Note {
    static let title = AttributeKey<String>("title")
    static let done = AttributeKey<Bool>("done")
    static let tags = AttributeKey<[String]>("tags")
}

let note = Note(["title": "Groceries"])
let title: String? = note[Note.title]
precondition(title == "Groceries")
precondition(note[Note.done] == false)  // from the model's defaults
//: A read is `nil` when the attribute is absent, or holds JSON of another shape.
precondition(note[Note.tags] == nil)
note["tags"] = "home"
precondition(note[Note.tags] == nil)  // a string is not an array of strings
//: Writing goes through `set`, with its events and validation; assigning `nil` unsets.
var events: [String] = []
note.on("all") { event in events.append(event.name) }
note[Note.tags] = ["home", "weekly"]
precondition(note["tags"] == ["home", "weekly"])
precondition(events == ["change:tags", "change"])
note[Note.tags] = nil
precondition(!note.has("tags"))
//: `set(_:_:)` with a key says whether validation accepted the change: `Note` allows
//: titles of up to 40 characters.
precondition(note.set(Note.title, String(repeating: "x", count: 41)) == false)
precondition(note[Note.title] == "Groceries")
precondition(note.set(Note.title, "Weekly groceries"))
//: ## Codable
//: `decode` reads the attributes as any `Decodable` type; attributes the type does not
//: declare are ignored.
struct NoteFields: Codable, Equatable {
    var title: String
    var done: Bool
}
let fields = try note.decode(NoteFields.self)
precondition(fields == NoteFields(title: "Weekly groceries", done: false))
//: `set(encoding:)` sets the attributes an `Encodable` value encodes, with the usual
//: events and validation, and leaves the others alone.
note["rank"] = 3
try note.set(encoding: NoteFields(title: "Errands", done: true))
precondition(note[Note.title] == "Errands" && note[Note.done] == true)
precondition(note["rank"] == 3)
//: A decoder or encoder with a key strategy bridges snake_case attributes and camelCase
//: properties.
struct Audit: Codable, Equatable {
    var createdBy: String
}
note["created_by"] = "ana"
let audit = try note.decode(Audit.self, decoder: JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase))
precondition(audit == Audit(createdBy: "ana"))
try note.set(encoding: Audit(createdBy: "bo"), encoder: JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase))
precondition(note["created_by"] == "bo")
//: [Next](@next)
