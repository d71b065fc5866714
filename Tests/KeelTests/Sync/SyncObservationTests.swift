import Observation
import Testing

@testable import Keel

/// A note whose class gives its URL.
private final class TrackedNote: Model {
    override class var urlRoot: String? { "/notes" }
}

/// A create, save or destroy reads the model to build its request after the call's first
/// suspension, where no Observation tracking can be under way: those reads are not reported,
/// so a model that nothing observes gets no registrar, and reads made under tracking before
/// or after the call are observed as ever.
struct SyncObservationTests {
    @Test func aCreatedModelHasNoRegistrar() async throws {
        let notes = Collection<TrackedNote>(url: "/notes", sync: InMemorySync())
        let note = try await notes.create(["title": "Dune"])
        #expect(!note.hasRegistrar)
        #expect(note.id == 1)
    }

    @Test func aSavedAndADestroyedModelHaveNoRegistrar() async throws {
        let sync = InMemorySync(records: ["/notes": [["id": 7, "title": "Dune"]]])
        let notes = Collection<TrackedNote>(url: "/notes", sync: sync)
        try await notes.fetch()
        let note = try #require(notes.models.first)
        try await note.save(["title": "Dune Messiah"])
        #expect(!note.hasRegistrar)
        try await note.destroy()
        #expect(!note.hasRegistrar)
        let fresh = TrackedNote(["title": "never saved"])
        fresh.sync = sync
        try await fresh.destroy()
        #expect(!fresh.hasRegistrar)
    }

    /// The id a create assigns reaches an observation that read it before the call, and the
    /// model's reads are reported again once the call returns.
    @Test func readsUnderTrackingAroundACreateAreObserved() async throws {
        let notes = Collection<TrackedNote>(url: "/notes", sync: InMemorySync())
        let note = TrackedNote(["title": "Dune"])
        let changes = Lock(0)
        withObservationTracking {
            _ = note.isNew
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        try await notes.create(note)
        #expect(changes.withLock { $0 } == 1)
        withObservationTracking {
            _ = note["title"]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        note["title"] = "Dune Messiah"
        #expect(changes.withLock { $0 } == 2)
    }

    /// A read inside `readingUnobserved` of an attribute the model lacks registers nothing and
    /// makes no registrar, and a throwing body's error passes through.
    @Test func unobservedReadsOfAMissingAttributeAndThrowingBodies() {
        let note = TrackedNote(["title": "Dune"])
        let missing = note.readingUnobserved { note["missing"] }
        #expect(missing == nil)
        #expect(!note.hasRegistrar)
        #expect(throws: SyncError.missingBackend) {
            try note.readingUnobserved { () throws(SyncError) in throw .missingBackend }
        }
        _ = note["missing"]
        #expect(note.hasRegistrar)
    }
}
