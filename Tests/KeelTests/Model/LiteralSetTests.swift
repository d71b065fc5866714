import Keel
import Testing

/// A `set` written as a dictionary literal (read as `KeyValuePairs`, without building an
/// `Attributes` value) does what a `set` of the same literal as an `Attributes` value does, for
/// any number of attributes.
struct LiteralSetTests {
    /// A note that refuses an empty title.
    private final class Note: Model {
        override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
            attributes["title"] == "" ? ["title": ["must not be empty"]] : nil
        }
    }

    /// A Rails model: its records come wrapped in a `memo` root with snake-case names.
    private final class Memo: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    /// The events a note fires during `body`, with its attributes after it and what it returned.
    private func transcript(_ body: (Note) -> Bool) -> [String] {
        let note = Note(["id": 1, "title": "first", "rank": 1])
        var lines: [String] = []
        note.on("all") { event in lines.append("\(event.name) \(String(describing: event.value))") }
        let result = body(note)
        lines.append("returned \(result): \(note.attributes) changed \(note.changed)")
        return lines
    }

    @Test func aLiteralOfSeveralAttributesSetsAsItsAttributesValueDoes() {
        let literal = transcript { $0.set(["rank": 2, "title": "second", "new": true]) }
        let value = transcript { note in
            let input: Attributes = ["rank": 2, "title": "second", "new": true]
            return note.set(input)
        }
        #expect(literal == value)
        #expect(literal.first == "change:rank Optional(2)")
    }

    @Test func aLaterDuplicateKeyReplacesTheEarlierValueInTheEarlierPosition() {
        let literal = transcript { $0.set(["new": 1, "title": "second", "new": 2]) }
        let value = transcript { note in
            let input: Attributes = ["new": 1, "title": "second", "new": 2]
            return note.set(input)
        }
        #expect(literal == value)
        #expect(literal.filter { $0.hasPrefix("change:new") } == ["change:new Optional(2)"])
    }

    @Test func anEmptyLiteralChangesNothingAndStillValidatesWhenAsked() {
        #expect(transcript { $0.set([:]) } == transcript { $0.set(Attributes()) })
        let validated = transcript { note in
            note.set(["title": ""], validate: false)
            return note.set([:], validate: true)
        }
        #expect(
            validated
                == transcript { note in
                    note.set(["title": ""], validate: false)
                    return note.set(Attributes(), validate: true)
                }
        )
        #expect(validated.last?.hasPrefix("returned false") == true)
    }

    @Test func flagsAndOptionsReachEveryLengthOfLiteral() {
        let silent = transcript { $0.set(["title": "second", "rank": 2], silent: true) }
        #expect(silent.count == 1)
        let refused = transcript { $0.set(["title": "", "rank": 2]) }
        #expect(
            refused
                == transcript { note in
                    let input: Attributes = ["title": "", "rank": 2]
                    return note.set(input)
                }
        )
        #expect(refused.contains { $0.hasPrefix("invalid") })
        let unvalidated = transcript { $0.set(["title": ""], validate: false) }
        #expect(unvalidated.last?.hasPrefix("returned true") == true)
    }

    /// A wire format's envelope: with `parse`, a one-attribute literal is a record as the
    /// server sends it, read by the format, as an `Attributes` value is.
    @Test func aOneAttributeLiteralWithParseIsReadAsARecordOfTheServer() {
        let literal = Memo(["id": 1])
        #expect(literal.set(["memo": ["due_at": "2027-01-01"]], options: ChangeOptions(parse: true)))
        let byName = Memo(["id": 1])
        #expect(byName.set("memo", ["due_at": "2027-01-01"], options: ChangeOptions(parse: true)))
        let value = Memo(["id": 1])
        let input: Attributes = ["memo": ["due_at": "2027-01-01"]]
        #expect(value.set(input, options: ChangeOptions(parse: true)))
        #expect(literal.attributes == value.attributes)
        #expect(byName.attributes == value.attributes)
        #expect(value.attributes == ["id": 1, "dueAt": "2027-01-01"])
    }
}
