import Observation
import Testing

@testable import Keel

/// A card whose title must not be "bad", with a default and typed keys.
private final class Card: Model {
    static let title = AttributeKey<String>("title")
    static let anyTitle = AttributeKey<JSONValue>("title")
    static let rank = AttributeKey<JSONValue>("rank")
    static let id = AttributeKey<JSONValue>("id")

    override class var defaults: Attributes { ["title": "", "done": false] }

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"] == "bad" ? ["title": ["must not be bad"]] : nil
    }
}

/// The ways to change one attribute: Backbone's `set` algorithm for any input (`apply`, what
/// the dictionary `set` runs for inputs of several attributes), which is the reference, and
/// the one-attribute paths that must behave exactly like it, the dictionary `set` of one entry
/// among them.
enum OneAttributeWriter: String, CaseIterable, CustomTestStringConvertible {
    case general, dictionary, literal, attributesValue, byName, typedSet, typedSubscript, nameSubscript

    /// The one-attribute paths.
    static let oneAttribute: [OneAttributeWriter] = [
        .dictionary, .literal, .attributesValue, .byName, .typedSet, .typedSubscript, .nameSubscript,
    ]

    var testDescription: String { rawValue }

    /// Sets `key` to `value` with the flags given, returning what `set` returns; the subscripts,
    /// which take no flags and return nothing, stand in for `set` by name when given flags and
    /// return `nil`.
    @discardableResult
    func write(
        _ model: Model,
        _ key: String,
        _ value: JSONValue,
        silent: Bool = false,
        validate: Bool? = nil
    ) -> Bool? {
        let typedKey = AttributeKey<JSONValue>(key)
        switch self {
        case .general:
            return model.apply([key: value], options: ChangeOptions().with(silent: silent, validate: validate))
        case .dictionary: return model.set([key: value], silent: silent, validate: validate)
        case .literal where !silent && validate == nil: return model.set([key: value])
        case .literal: return model.set([key: value], silent: silent, validate: validate)
        case .attributesValue:
            let input: Attributes = [key: value]
            return model.set(input, silent: silent, validate: validate)
        case .byName: return model.set(key, value, silent: silent, validate: validate)
        case .typedSet: return model.set(typedKey, value, silent: silent, validate: validate)
        case .typedSubscript where !silent && validate == nil: model[typedKey] = value
        case .nameSubscript where !silent && validate == nil: model[key] = value
        case .typedSubscript, .nameSubscript: model.set(key, value, silent: silent, validate: validate)
        }
        return nil
    }

    /// Removes `key`: by `unset`, or by assigning `nil` through a subscript.
    func remove(_ model: Model, _ key: String) {
        switch self {
        case .general, .dictionary, .literal, .attributesValue, .byName, .typedSet: model.unset(key)
        case .typedSubscript: model[AttributeKey<JSONValue>(key)] = nil
        case .nameSubscript: model[key] = nil
        }
    }
}

/// Everything a listener can see of a model at each event: the event's name and value, and
/// the model's attributes, `changed`, `changedAttributes()`, `previousAttributes()` and
/// validation error at that moment.
private final class Transcript {
    var lines: [String] = []

    init(_ model: Model) {
        model.on("all") { [unowned self] event in
            lines.append(
                "\(event.name) value=\(String(describing: event.value)) id=\(String(describing: event.previousID)) "
                    + "attributes=\(model.attributes) changed=\(model.changed) "
                    + "changedAttributes=\(String(describing: model.changedAttributes())) "
                    + "previous=\(model.previousAttributes()) error=\(String(describing: model.validationError))"
            )
        }
    }

    /// Appends the model's state after a call.
    func after(_ model: Model) {
        lines.append(
            "after: attributes=\(model.attributes) changed=\(model.changed) "
                + "previous=\(model.previousAttributes()) hasChanged=\(model.hasChanged()) "
                + "error=\(String(describing: model.validationError)) id=\(String(describing: model.id))"
        )
    }
}

/// The one-attribute `set` paths (the dictionary `set` of one entry, as a literal with and
/// without flags or as an `Attributes` value, `set(_:_:)` by name, `set` and the subscript by
/// typed key, the subscript by name) are observably Backbone's `set`
/// algorithm for a one-entry input: the same events in the same order, the same `changed`,
/// `previous` and validation state at each event and after, and the same Observation reports.
struct OneAttributeSetEquivalenceTests {
    /// Runs `script` on a fresh card with `writer` and returns what a listener and the caller saw.
    private func transcript(
        _ writer: OneAttributeWriter,
        _ script: (Card, OneAttributeWriter, Transcript) -> Void
    ) -> [String] {
        let card = Card(["id": 1, "title": "first", "rank": 1])
        let transcript = Transcript(card)
        script(card, writer, transcript)
        return transcript.lines
    }

    /// Runs one call and records the card's state after it.
    private static func step(_ card: Card, _ transcript: Transcript, _ body: () -> Void) {
        body()
        transcript.after(card)
    }

    @Test(arguments: OneAttributeWriter.oneAttribute)
    func changesAndUnchangedSetsMatch(_ writer: OneAttributeWriter) {
        let script: (Card, OneAttributeWriter, Transcript) -> Void = { card, writer, transcript in
            Self.step(card, transcript) { writer.write(card, "title", "second") }
            Self.step(card, transcript) { writer.write(card, "title", "second") }
            Self.step(card, transcript) { writer.write(card, "rank", 1.0) }
            Self.step(card, transcript) { writer.write(card, "rank", 2) }
            Self.step(card, transcript) { writer.write(card, "title", .null) }
            Self.step(card, transcript) { writer.write(card, "new", "added") }
            Self.step(card, transcript) { writer.write(card, "done", true, silent: true) }
            Self.step(card, transcript) { writer.write(card, "done", true, validate: true) }
        }
        #expect(transcript(writer, script) == transcript(.general, script))
    }

    @Test(arguments: OneAttributeWriter.oneAttribute)
    func validationFailuresMatch(_ writer: OneAttributeWriter) {
        let script: (Card, OneAttributeWriter, Transcript) -> Void = { card, writer, transcript in
            Self.step(card, transcript) { writer.write(card, "title", "bad") }
            Self.step(card, transcript) { writer.write(card, "title", "bad", silent: true) }
            Self.step(card, transcript) { writer.write(card, "title", "bad", validate: false) }
            Self.step(card, transcript) { writer.write(card, "title", "bad", validate: true) }
            Self.step(card, transcript) { writer.write(card, "title", "good") }
        }
        #expect(transcript(writer, script) == transcript(.general, script))
    }

    @Test(arguments: [OneAttributeWriter.dictionary, .literal, .attributesValue, .byName, .typedSet])
    func resultsMatch(_ writer: OneAttributeWriter) {
        func results(_ writer: OneAttributeWriter) -> [Bool?] {
            let card = Card(["title": "first"])
            return [
                writer.write(card, "title", "second"),
                writer.write(card, "title", "bad"),
                writer.write(card, "title", "bad", silent: true),
                writer.write(card, "title", "second", validate: true),
                writer.write(card, "title", "bad", validate: false),
                writer.write(card, "title", "bad", validate: true),
                writer.write(card, "missing", "bad"),
            ]
        }
        #expect(results(writer) == results(.general))
        #expect(results(.general) == [true, false, false, true, true, false, false])
    }

    @Test(arguments: OneAttributeWriter.oneAttribute)
    func setsInsideHandlersCoalesceAlike(_ writer: OneAttributeWriter) {
        let script: (Card, OneAttributeWriter, Transcript) -> Void = { card, writer, transcript in
            card.on("change:title") { _ in
                writer.write(card, "rank", 5)
                writer.write(card, "title", "first")
            }
            card.once("change") { _ in writer.write(card, "done", true) }
            Self.step(card, transcript) { writer.write(card, "title", "second") }
        }
        #expect(transcript(writer, script) == transcript(.general, script))
    }

    @Test(arguments: OneAttributeWriter.oneAttribute)
    func removalsByNilMatchUnset(_ writer: OneAttributeWriter) {
        let script: (Card, OneAttributeWriter, Transcript) -> Void = { card, writer, transcript in
            Self.step(card, transcript) { writer.remove(card, "title") }
            Self.step(card, transcript) { writer.remove(card, "missing") }
        }
        #expect(transcript(writer, script) == transcript(.general, script))
    }

    @Test(arguments: OneAttributeWriter.oneAttribute)
    func idChangesMatchAndReindexTheCollection(_ writer: OneAttributeWriter) {
        let script: (Card, OneAttributeWriter, Transcript) -> Void = { card, writer, transcript in
            let cards = Collection<Card>([card])
            Self.step(card, transcript) { writer.write(card, "id", 7) }
            transcript.lines.append("by 7: \(cards.get(7) === card), by 1: \(cards.get(1) == nil)")
            Self.step(card, transcript) { writer.write(card, "id", .null) }
            transcript.lines.append("by 7: \(cards.get(7) == nil), isNew: \(card.isNew)")
        }
        #expect(transcript(writer, script) == transcript(.general, script))
    }

    @Test(arguments: OneAttributeWriter.allCases)
    func observationReportsTheChangedAttributeOnly(_ writer: OneAttributeWriter) {
        let card = Card(["id": 1, "title": "first", "rank": 1])
        let title = AttributeChangeCounter(card, "title")
        let rank = AttributeChangeCounter(card, "rank")
        let all = Lock(0)
        withObservationTracking {
            _ = card.attributes
        } onChange: {
            all.withLock { $0 += 1 }
        }
        writer.write(card, "title", "first")
        #expect(title.count == 0 && rank.count == 0 && all.withLock { $0 } == 0)
        writer.write(card, "title", "second")
        #expect(title.count == 1)
        #expect(rank.count == 0)
        #expect(all.withLock { $0 } == 1)
    }

    @Test func typedReadsConvertTheStoredValueAndAreObserved() {
        let card = Card(["title": "first", "rank": 2])
        #expect(card[Card.title] == "first")
        #expect(card[Card.anyTitle] == "first")
        #expect(card[AttributeKey<Int>("rank")] == 2)
        #expect(card[AttributeKey<String>("rank")] == nil)
        #expect(card[AttributeKey<String>("missing")] == nil)
        let changes = Lock(0)
        withObservationTracking {
            _ = card[Card.title]
            _ = card[AttributeKey<String>("missing")]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        card[Card.rank] = 3
        #expect(changes.withLock { $0 } == 0)
        card[AttributeKey<String>("missing")] = "now"
        #expect(changes.withLock { $0 } == 1)
    }
}
