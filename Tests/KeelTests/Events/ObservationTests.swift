import Keel
import Observation
import Testing

/// Counts `onChange` calls; `onChange` closures must be `Sendable`.
private final class ChangeCounter: Sendable {
    private let state = Lock(0)

    var count: Int { state.withLock { $0 } }

    func record() { state.withLock { $0 += 1 } }
}

/// A model subclass with a typed accessor, as an app would write one.
private final class Note: Model {
    var title: String { self["title"]?.stringValue ?? "" }

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"]?.stringValue?.isEmpty == false ? nil : ["title": ["can't be blank"]]
    }
}

/// Runs `read` under Observation tracking; the next change to what it read records one
/// change in `counter`.
private func track(_ counter: ChangeCounter, _ read: () -> Void) {
    withObservationTracking(read) { counter.record() }
}

/// Swift Observation: reading an attribute tracks that attribute only; `attributes` tracks
/// all of them; a collection's models, count and iteration track membership and order.
struct ObservationTests {
    // MARK: - Models

    @Test func readingAnAttributeTracksThatAttributeOnly() {
        let note = Model(["title": "a", "body": "b"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note["title"]
        }
        note["body"] = "c"
        #expect(changes.count == 0)
        note["title"] = "d"
        #expect(changes.count == 1)
    }

    // Keys are Swift strings: a canonically equivalent spelling names the same attribute,
    // so a change through either spelling notifies readers of the other.
    @Test func equivalentKeySpellingsTrackTheSameAttribute() {
        let kelvin = "\u{212A}"  // KELVIN SIGN, canonically equivalent to "K"
        let decomposed = "e\u{301}"  // "é" as e + COMBINING ACUTE ACCENT
        let note = Model(["K": 1, "\u{E9}": 2])
        let changes = ChangeCounter()
        track(changes) {
            _ = note["K"]
            _ = note["\u{E9}"]
        }
        note[kelvin] = 10
        #expect(changes.count == 1)
        #expect(note["K"] == 10)

        track(changes) {
            _ = note[kelvin]
        }
        note["K"] = 11
        #expect(changes.count == 2)

        track(changes) {
            _ = note["\u{E9}"]
        }
        note[decomposed] = 20
        #expect(changes.count == 3)
    }

    // Many attribute names (past the key-path cache's first table size) each keep their own
    // tracking.
    @Test func everyOfManyAttributesTracksSeparately() {
        let keys = (0..<300).map { "field\($0)" }
        let note = Model(JSONObject(uniqueKeysWithLastValues: keys.map { ($0, JSONValue.int(0)) }))
        for key in keys { _ = note[key] }
        for (index, key) in keys.enumerated() where index.isMultiple(of: 37) {
            let changes = ChangeCounter()
            track(changes) {
                _ = note[key]
            }
            note[keys[(index + 1) % keys.count]] = 1
            #expect(changes.count == 0)
            note[key] = .int(index + 1)
            #expect(changes.count == 1)
        }
    }

    @Test func getAndHasTrackTheirAttribute() {
        let note = Model(["title": "a", "due": nil])
        let titleChanges = ChangeCounter()
        let dueChanges = ChangeCounter()
        track(titleChanges) {
            _ = note.get("title")
        }
        track(dueChanges) {
            _ = note.has("due")
        }
        note["due"] = "tomorrow"
        #expect(titleChanges.count == 0)
        #expect(dueChanges.count == 1)
        note.set("title", "b")
        #expect(titleChanges.count == 1)
    }

    @Test func typedAccessorTracksItsAttribute() {
        let note = Note(["title": "Groceries", "done": false])
        let changes = ChangeCounter()
        track(changes) {
            _ = note.title
        }
        note["done"] = true
        #expect(changes.count == 0)
        note["title"] = "Errands"
        #expect(changes.count == 1)
    }

    @Test func readingAttributesTracksEveryAttribute() {
        let note = Model(["title": "a", "body": "b"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note.attributes
        }
        note["body"] = "c"
        #expect(changes.count == 1)
    }

    @Test func addingAnAttributeNotifiesAttributesObservers() {
        let note = Model()
        let changes = ChangeCounter()
        track(changes) {
            _ = note.attributes
        }
        note["title"] = "new"
        #expect(changes.count == 1)
    }

    @Test func unsettingAnAttributeNotifiesItsObservers() {
        let note = Model(["title": "a", "body": "b"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note["title"]
        }
        note["body"] = nil
        #expect(changes.count == 0)
        note["title"] = nil
        #expect(changes.count == 1)
        #expect(note["title"] == nil)
    }

    @Test func clearNotifiesEveryAttributesObservers() {
        let note = Model(["title": "a", "body": "b"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note["body"]
        }
        note.clear()
        #expect(changes.count == 1)
    }

    @Test func settingTheSameValueDoesNotNotify() {
        let note = Model(["title": "a"])
        let titleChanges = ChangeCounter()
        let allChanges = ChangeCounter()
        track(titleChanges) {
            _ = note["title"]
        }
        track(allChanges) {
            _ = note.attributes
        }
        note["title"] = "a"
        note.set(["title": "a"])
        #expect(titleChanges.count == 0)
        #expect(allChanges.count == 0)
    }

    @Test func silentChangesStillNotifyObservers() {
        // Observation reflects the stored state; `silent` only suppresses Backbone events.
        let note = Model(["title": "a"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note["title"]
        }
        note.set(["title": "b"], silent: true)
        #expect(changes.count == 1)
    }

    @Test func rejectedChangesDoNotNotifyAttributeObservers() {
        let note = Note(["title": "Groceries"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note.title
        }
        let accepted = note.set(["title": ""])
        #expect(!accepted)
        #expect(changes.count == 0)
    }

    @Test func readingTheIDTracksTheIDAttribute() {
        let note = Model(["id": 1, "title": "a"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note.id
        }
        note["title"] = "b"
        #expect(changes.count == 0)
        note["id"] = 2
        #expect(changes.count == 1)
    }

    @Test func validationErrorIsObservable() {
        let note = Note(["title": "Groceries"])
        let changes = ChangeCounter()
        track(changes) {
            _ = note.validationError
        }
        note.set(["title": ""])
        #expect(note.validationError != nil)
        #expect(changes.count == 1)
    }

    @Test func validationErrorIsObservableOnceTheModelIsObserved() {
        let note = Note(["title": "Groceries"])
        withObservationTracking {
            _ = note.title
        } onChange: {
        }
        let changes = ChangeCounter()
        track(changes) {
            _ = note.validationError
        }
        note.set(["title": ""])
        #expect(changes.count == 1)
    }

    @Test func changeHandlersSeeTheNewValueWhileObserversAreNotified() {
        let note = Model(["title": "a"])
        let changes = ChangeCounter()
        var seen: [JSONValue?] = []
        track(changes) {
            _ = note["title"]
        }
        note.on("change:title") { event in seen.append(event.model?["title"]) }
        note["title"] = "b"
        #expect(changes.count == 1)
        #expect(seen == ["b"])
    }

    // MARK: - Collections

    @Test func modelsTrackAdding() {
        let notes = Collection<Model>()
        let changes = ChangeCounter()
        track(changes) {
            _ = notes.models
        }
        notes.add(["id": 1])
        #expect(changes.count == 1)
        #expect(notes.count == 1)
    }

    @Test func countTracksRemoving() {
        let notes = Collection<Model>([["id": 1], ["id": 2]])
        let changes = ChangeCounter()
        track(changes) {
            _ = notes.count
        }
        notes.remove(1)
        #expect(changes.count == 1)
        #expect(notes.count == 1)
    }

    @Test func iterationTracksMembership() {
        let notes = Collection<Model>([["id": 1]])
        let changes = ChangeCounter()
        var titles: [JSONValue?] = []
        track(changes) {
            for note in notes { titles.append(note["title"]) }
        }
        notes.add(["id": 2])
        #expect(changes.count == 1)
        #expect(titles == [nil])
    }

    @Test func modelsTrackResetAndSort() throws {
        let notes = Collection<Model>([["id": 2], ["id": 1]])
        let resets = ChangeCounter()
        track(resets) {
            _ = notes.models
        }
        notes.reset([["id": 3], ["id": 1], ["id": 2]])
        #expect(resets.count == 1)

        notes.comparator = .attribute("id")
        let sorts = ChangeCounter()
        track(sorts) {
            _ = notes.first
        }
        try notes.sort()
        #expect(sorts.count == 1)
        #expect(notes.map(\.id) == [1, 2, 3])
    }

    @Test func changingAModelDoesNotNotifyObserversOfTheCollection() {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let changes = ChangeCounter()
        track(changes) {
            _ = notes.models
        }
        notes[0]["title"] = "b"
        #expect(changes.count == 0)
    }

    @Test func readingThroughACollectionTracksTheModelAttribute() {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let changes = ChangeCounter()
        track(changes) {
            _ = notes.get(1)?["title"]
        }
        notes.get(1)?["title"] = "b"
        #expect(changes.count == 1)
    }

    @Test func aLookupByIDTracksTheRemovalOfTheModelItFound() {
        let notes = Collection<Model>([["id": 1, "title": "a"], ["id": 2, "title": "b"]])
        let changes = ChangeCounter()
        track(changes) {
            _ = notes.get(1)
        }
        notes.remove(1)
        #expect(changes.count == 1)
    }

    @Test func removingTracksNothing() throws {
        let notes = Collection<Model>([["id": 1], ["id": 2], ["id": 3], ["id": 4]])
        let second = try #require(notes.get(2))
        let third = try #require(notes.get(3))
        let changes = ChangeCounter()
        track(changes) {
            notes.remove(1)
            notes.remove(second)
            notes.remove([third])
        }
        notes.add(["id": 5])
        notes.remove(4)
        #expect(changes.count == 0)
        #expect(notes.map(\.id) == [5])
    }

    @Test func lookupsByClientIDAndByAttributesTrackMembership() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let first = try #require(notes.get(1))
        let byClientID = ChangeCounter()
        track(byClientID) {
            #expect(notes.get(.string(first.cid)) === first)
        }
        let byAttributes = ChangeCounter()
        track(byAttributes) {
            #expect(notes.get(["id": 2]) == nil)
        }
        notes.add(["id": 2, "title": "b"])
        #expect(byClientID.count == 1)
        #expect(byAttributes.count == 1)
    }
}
