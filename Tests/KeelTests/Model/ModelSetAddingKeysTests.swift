import Observation
import Testing

@testable import Keel

/// A `set` that gives a model keys it lacks, beside values of keys it has.
///
/// The keys keep their places and the new ones follow in input order, and `changed`, the
/// previous attributes, the events, the id and Observation are those of any `set` (Backbone's
/// `set`). A create's answer, which echoes the sent attributes and adds the new id, is such a
/// `set`.
struct ModelSetAddingKeysTests {
    @Test func newKeysFollowTheKeptOnesInInputOrderAndOnlyWhatChangedIsRecorded() {
        let model = Model(["a": 1, "b": 2])
        model.set(["d": 4, "a": 1, "c": 3, "b": 20])
        #expect(Array(model.attributes.keys) == ["a", "b", "d", "c"])
        #expect(model.attributes == ["a": 1, "b": 20, "d": 4, "c": 3])
        #expect(Array(model.changed.keys) == ["d", "c", "b"])
        #expect(model.changed == ["d": 4, "c": 3, "b": 20])
        #expect(model.previousAttributes() == ["a": 1, "b": 2])
        #expect(model.previous("d") == nil)
        #expect(model.hasChanged("d") && model.hasChanged("b") && !model.hasChanged("a"))
    }

    @Test func eventsFireForTheNewAndChangedKeysInInputOrderThenChange() {
        let model = Model(["a": 1, "b": 2])
        var names: [String] = []
        var values: [JSONValue?] = []
        model.on("all") { event in
            names.append(event.name)
            values.append(event.value)
        }
        model.set(["b": 2, "c": .null, "a": 5])
        #expect(names == ["change:c", "change:a", "change"])
        #expect(values == [.null, 5, nil])
        #expect(model.attributes == ["a": 5, "b": 2, "c": .null])
    }

    @Test func aNewIDUpdatesTheIdentityAndFiresChangeIdBeforeTheAttributeEvents() {
        let model = Model(["title": "Dune"])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["title": "Dune", "id": 7])
        #expect(model.id == 7)
        #expect(!model.isNew)
        #expect(names == ["changeId", "change:id", "change"])
    }

    @Test func theModelTakesTheLayoutOfAModelBuiltWithTheSameKeys() {
        let grown = Model(["a": 1, "b": 2])
        grown.set(["a": 1, "b": 2, "c": 3])
        let built = Model(["a": 1, "b": 2, "c": 3])
        #expect(grown.layout === built.layout)
        #expect(grown["c"] == 3)
        grown.set("c", 4)
        #expect(grown["c"] == 4)
        #expect(grown.changed == ["c": 4])
    }

    @Test func observersOfTheNewAndChangedKeysAreNotifiedAndOthersAreNot() {
        let model = Model(["a": 1, "b": 2])
        let aChanges = AttributeChangeCounter(model, "a")
        let bChanges = AttributeChangeCounter(model, "b")
        let cChanges = AttributeChangeCounter(model, "c")
        model.set(["a": 1, "b": 3, "c": 4])
        #expect(aChanges.count == 0)
        #expect(bChanges.count == 1)
        #expect(cChanges.count == 1)
    }

    @Test func aRejectedSetWithNewKeysChangesNothing() {
        let model = NonNegativeX(["x": 1])
        #expect(!model.set(["x": -1, "y": 2]))
        #expect(model.attributes == ["x": 1])
        #expect(Array(model.attributes.keys) == ["x"])
        #expect(model["y"] == nil)
        #expect(model.validationError != nil)
    }

    @Test func aSetInsideAChangeHandlerCountsTheNewKeysAgainstTheOutermostSet() {
        let model = Model(["a": 1])
        model.on("change:a") { _ in model.set(["a": 2, "b": 3]) }
        var changedInChange: Attributes = [:]
        model.on("change") { _ in changedInChange = model.changed }
        model.set("a", 2)
        #expect(changedInChange == ["a": 2, "b": 3])
        #expect(model.previousAttributes() == ["a": 1])
    }

    @Test func theReplacedStorageStaysAsItWasForWhoeverKeptIt() {
        let model = Model(["a": 1])
        let before = model.attributes
        model.set(["a": 1, "b": 2])
        #expect(before == ["a": 1])
        #expect(model.previousAttributes() == before)
    }
}

/// A create's answer applied to the model that was sent.
///
/// The id it assigns is the one change, with Backbone's `change:id`, `change`, `sync` in that
/// order, and the answer that echoes the sent attributes becomes the model's attributes as it is.
@MainActor
struct CreateAnswerApplyTests {
    @Test func aCreatesAnswerChangesOnlyTheIDWithChangeIdChangeAndSyncInOrder() async throws {
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        let sent: Attributes = ["title": "Dune", "rank": 3, "tags": ["a", "b"]]
        let note = Model(sent)
        var names: [String] = []
        note.on("all") { names.append($0.name) }
        let titleChanges = AttributeChangeCounter(note, "title")
        let idChanges = AttributeChangeCounter(note, "id")
        notes.add(note)
        names.removeAll()

        try await note.save()

        #expect(names == ["request", "changeId", "change:id", "change", "sync"])
        #expect(note.id == 1)
        #expect(note.changed == ["id": 1])
        #expect(note.previousAttributes() == sent)
        #expect(note.hasChanged("id") && !note.hasChanged("title"))
        #expect(note.attributes == ["title": "Dune", "rank": 3, "tags": ["a", "b"], "id": 1])
        #expect(titleChanges.count == 0)
        #expect(idChanges.count == 1)
        #expect(notes.get(1) === note)
    }

    @Test func anAnswerThatEchoesTheSentAttributesBecomesTheStorageWithoutACopy() async throws {
        let note = Model(["title": "Dune", "rank": 3])
        note.urlRoot = "/notes"
        note.sync = InMemorySync()
        let response = try await note.save()
        let answer = try #require(response.body?.objectValue)
        #expect(note.storage.isIdentical(to: answer))
        #expect(note.attributes == ["title": "Dune", "rank": 3, "id": 1])
    }
}
