import Testing

@testable import Keel

/// What a model keeps for syncing from the released collections it was in: a released
/// collection's forwarder keeps its URL, base URL and backend once for the models whose
/// collection it was, instead of a copy in each, and each model still reads the first
/// released collection's, whatever happened to it since.
struct ReleasedCollectionContextTests {
    @Test(arguments: CollectionKind.allCases)
    func aModelReadsItsReleasedCollectionsURLAndBackend(kind: CollectionKind) throws {
        let backend = InMemorySync()
        var notes: Collection<Model>? = kind.make([Model(["id": 1])])
        notes?.url = "/notes"
        notes?.sync = backend
        let note = try #require(notes?.first)
        notes = nil
        #expect(note.collection == nil)
        #expect(try note.url() == "/notes/1")
        #expect(note.resolvedSync as? InMemorySync === backend)
        #expect(note.namesBackend)
    }

    @Test(arguments: CollectionKind.allCases)
    func aModelAddedElsewhereAfterItsCollectionIsReleasedKeepsTheFirstURL(kind: CollectionKind) throws {
        var first: Collection<Model>? = kind.make([Model(["id": 1])])
        first?.url = "/first"
        let note = try #require(first?.first)
        first = nil
        var second: Collection<Model>? = kind.make([note])
        second?.url = "/second"
        #expect(note.collection === second)
        #expect(try note.url() == "/second/1")
        second?.remove(note)
        #expect(try note.url() == "/first/1")
        second?.add(note)
        second = nil
        #expect(try note.url() == "/first/1")
    }

    @Test(arguments: CollectionKind.allCases)
    func aModelItsCollectionRemovedKeepsTheURLOfAnotherWhenThatIsReleased(kind: CollectionKind) throws {
        let first = kind.make([Model(["id": 1])])
        first.url = "/first"
        let note = try #require(first.first)
        var second: Collection<Model>? = kind.make([note])
        second?.url = "/second"
        first.remove(note)
        #expect(note.collection == nil)
        second = nil
        #expect(try note.url() == "/second/1")
    }

    @Test func aModelOfACollectionWithoutURLOrBackendKeepsNothing() throws {
        var notes: Collection<Model>? = Collection<Model>([Model(["id": 1])])
        let note = try #require(notes?.first)
        notes = nil
        #expect(note.releasedCollectionContext == nil)
        #expect(throws: SyncError.self) { try note.url() }
    }
}
