import Keel
import Testing

// The examples of ISModel's model documentation (seed 004), whose validation rules Keel
// follows, as literal tests.

/// ISModel's example: a note whose title, when present, has at least 5 characters.
private final class Note: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        var errors: [String] = []
        if let title = attributes["title"]?.stringValue, title.count < 5 {
            errors.append("Title cannot be less than 5 characters")
        }
        return ValidationError(messages: errors)
    }
}

/// ISModel's `idAttribute` example: the key `name` holds the id.
private final class Person: Model {
    override class var idAttribute: String { "name" }
}

/// ISModel's `defaults` example.
private final class DefaultedNote: Model {
    override class var defaults: Attributes { ["title": "Untitled", "body": ""] }
}

struct ISModelExampleTests {
    // MARK: - Attributes

    @Test func attributesCanBeAddedUpdatedAndRemoved() {
        let note = Note(["title": "Groceries", "body": "milk", "created_at": "2012-01-01"])
        #expect(note.has("title"))
        #expect(note.get("body") == "milk")
        note.set(["body": "milk, eggs"])
        #expect(note.get("body") == "milk, eggs")
        note.unset("created_at")
        #expect(note.has("created_at") == false)
        note.clear()
        #expect(note.attributes.isEmpty)
    }

    @Test func defaultsAreNoneUnlessOverridden() {
        #expect(Note().attributes.isEmpty)
        let note = DefaultedNote(["body": "text"])
        #expect(note.attributes == ["title": "Untitled", "body": "text"])
    }

    // MARK: - Id

    @Test func idIsTheValueOfTheIDAttributeAndNilMeansNew() {
        let note = Note(["title": "Groceries"])
        #expect(note.id == nil)
        #expect(note.isNew)
        note.set(["id": 1])
        #expect(note.id == 1)
        #expect(note.isNew == false)
    }

    @Test func idAttributeCanBeOverriddenToName() {
        let person = Person(["name": "ann", "id": 5])
        #expect(Person.idAttribute == "name")
        #expect(person.idAttribute == "name")
        #expect(person.id == "ann")
        #expect(person.isNew == false)
        person.set(["name": "bob"])
        #expect(person.id == "bob")
        person.unset("name")
        #expect(person.id == nil)
        #expect(person.isNew)
        #expect(person.get("id") == 5)
    }

    // MARK: - Change events

    @Test func changingAnAttributeFiresChangeNameThenChange() {
        let person = Person(["name": "ann"])
        var names: [String] = []
        person.on("all") { names.append($0.name) }

        person.set(["name": "bob"])  // updated
        #expect(names == ["changeId", "change:name", "change"])

        names = []
        person.unset("name")  // removed
        #expect(names == ["changeId", "change:name", "change"])

        names = []
        person.set(["name": "cy"])  // added
        #expect(names == ["changeId", "change:name", "change"])
    }

    @Test func changeNameHandlerSeesTheNewValue() {
        let person = Person(["name": "ann"])
        var seen: [JSONValue?] = []
        person.on("change:name") { seen.append($0.value) }
        person["name"] = "bob"
        person["name"] = nil
        #expect(seen == ["bob", nil])
    }

    // MARK: - Validation

    @Test func shortTitleIsRejectedWithISModelsMessage() {
        let note = Note(["title": "Groceries"])
        #expect(note.set(["title": "Milk"]) == false)
        #expect(note.get("title") == "Groceries")
        #expect(note.validationError?.messages == ["Title cannot be less than 5 characters"])
    }

    @Test func titleOfFiveCharactersOrNoTitleIsValid() {
        let note = Note(["title": "Groceries"])
        #expect(note.set(["title": "Taxes"]))
        #expect(note.unset("title"))
        #expect(note.validationError == nil)
        #expect(note.isValid())
    }

    @Test func failedValidationTriggersErrorWithTheErrors() {
        let note = Note(["title": "Groceries"])
        var errors: [[String]] = []
        note.on("error") { event in errors.append(event.validationError?.messages ?? []) }
        note.set(["title": "abc"])
        #expect(errors == [["Title cannot be less than 5 characters"]])
    }

    @Test func failedValidationCallsTheHandlerInsteadOfTriggeringError() {
        let note = Note(["title": "Groceries"])
        var triggered: [String] = []
        note.on("all") { triggered.append($0.name) }
        var calls: [(origin: Model, errors: [String], source: JSONValue?)] = []
        let options = ChangeOptions(custom: ["source": "form"]) { origin, errors, options in
            calls.append((origin, errors.messages, options["source"]))
        }
        #expect(note.set(["title": "abc"], options: options) == false)
        #expect(triggered.isEmpty)
        #expect(calls.count == 1)
        #expect(calls.first?.origin === note)
        #expect(calls.first?.errors == ["Title cannot be less than 5 characters"])
        #expect(calls.first?.source == "form")
    }

    @Test func handlerIsNotCalledWhenValidationPasses() {
        let note = Note()
        var calls = 0
        let options = ChangeOptions(onValidationError: { _, _, _ in calls += 1 })
        #expect(note.set(["title": "Groceries"], options: options))
        #expect(calls == 0)
    }

    @Test func silentTriggersNoErrorAndCallsNoHandler() {
        let note = Note(["title": "Groceries"])
        var triggered: [String] = []
        note.on("all") { triggered.append($0.name) }
        var calls = 0
        let options = ChangeOptions(onValidationError: { _, _, _ in calls += 1 })
        #expect(note.set(["title": "abc"], silent: true, options: options) == false)
        #expect(note.get("title") == "Groceries")
        #expect(triggered.isEmpty)
        #expect(calls == 0)
    }

    @Test func silentValidChangeFiresNoEvents() {
        let person = Person(["name": "ann"])
        var triggered: [String] = []
        person.on("change:name change") { triggered.append($0.name) }
        #expect(person.set(["name": "bob"], silent: true))
        #expect(person.get("name") == "bob")
        #expect(triggered.isEmpty)
    }

    // MARK: - cid and collection

    @Test func everyModelHasAUniqueCID() {
        let notes = [Note(), Note(), Note()]
        #expect(Set(notes.map(\.cid)).count == 3)
    }

    @Test func collectionPropertyLinksTheModelToItsCollection() throws {
        let notes = Collection<Note>()
        let note = try #require(notes.add(["title": "Groceries"]))
        #expect(note.collection === notes)
        #expect(Note().collection == nil)
    }
}
