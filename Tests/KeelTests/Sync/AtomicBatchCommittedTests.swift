import Foundation
import Keel
import Testing

/// What ``AtomicOperations`` does when the server committed a batch (it answered 200) but
/// Keel cannot map every result: what can be mapped is applied, removals are destroyed, the
/// rest is named in ``SyncError/atomicBatchCommitted(unmapped:reason:)``, and no model is
/// left to be created twice.
@MainActor
struct AtomicBatchCommittedTests {
    final class Person: Model {
        override class var urlRoot: String? { "/people" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    final class Post: Model {
        override class var urlRoot: String? { "/posts" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    private let operations = AtomicOperations(endpoint: URL(string: "/operations"))

    private func committed(_ results: [JSONValue]) -> ScriptedSync {
        ScriptedSync(always: SyncResponse(status: 200, body: ["atomic:results": .array(results)]))
    }

    private func unmapped(_ error: SyncError?) -> [String]? {
        guard case .atomicBatchCommitted(let unmapped, _)? = error else { return nil }
        return unmapped
    }

    @Test func tooFewResultsStillGiveIdsToTheAddsTheyPairWithByType() async throws {
        let server = committed([["data": ["type": "people", "id": "100"]]])
        let ann = Person(["name": "Ann"])
        let post = Post(["title": "Hi"])
        for model in [ann, post] as [Model] { model.sync = server }
        var errors: [String] = []
        for model in [ann, post] as [Model] { model.on("error") { event in errors.append(event.model?.cid ?? "") } }

        let error = await #expect(throws: SyncError.self) { try await operations.save([ann, post]) }

        #expect(unmapped(error) == [post.cid])
        #expect(ann.id == 100)
        #expect(post.isNew)
        #expect(errors == [post.cid])
    }

    @Test func aResultThatEchoesTheLidPairsWithItsAdd() async throws {
        let ann = Person(["name": "Ann"])
        let bob = Person(["name": "Bob"])
        let server = committed([["data": ["type": "people", "id": "2", "lid": .string(bob.cid)]]])
        for model in [ann, bob] { model.sync = server }

        let error = await #expect(throws: SyncError.self) { try await operations.save([ann, bob]) }

        #expect(unmapped(error) == [ann.cid])
        #expect(bob.id == 2)
        #expect(ann.isNew)
    }

    @Test func aResultOfAnotherTypeIsNotAppliedToTheModel() async throws {
        let server = committed([["data": ["type": "posts", "id": "9"]], ["data": ["type": "posts", "id": "10"]]])
        let ann = Person(["name": "Ann"])
        let post = Post(["title": "Hi"])
        for model in [ann, post] as [Model] { model.sync = server }

        let error = await #expect(throws: SyncError.self) { try await operations.save([ann, post]) }

        #expect(unmapped(error) == [ann.cid])
        #expect(ann.isNew)
        #expect(post.id == 10)
    }

    @Test func anUpdateWithoutAUsableResultKeepsWhatItSentAndRemovalsAreDestroyed() async throws {
        let server = committed([["data": ["type": "people", "id": "5"]]])
        let kept = Person(["id": 1, "name": "Old"])
        let gone = Person(["id": 2, "name": "Gone"])
        let ann = Person(["name": "Ann"])
        for model in [kept, gone, ann] { model.sync = server }
        kept.markSynced()
        kept["name"] = "New"
        var destroyed = false
        gone.on("destroy") { _ in destroyed = true }

        let error = await #expect(throws: SyncError.self) {
            try await operations.save([kept, ann], destroying: [gone])
        }

        #expect(unmapped(error)?.contains(ann.cid) == true)
        #expect(kept["name"] == "New")
        #expect(kept.unsavedChanges == nil)
        #expect(destroyed)
    }

    @Test func aStoreDoesNotCreateAnUnmappedModelAgain() async throws {
        let server = committed([])
        let store = Store(sync: server)
        let ann = Person(["name": "Ann"])
        ann.sync = server
        try store.insert(ann)

        let error = await #expect(throws: SyncError.self) { try await store.saveChanges(atomically: operations) }

        #expect(unmapped(error) == [ann.cid])
        #expect(store.insertedModels.isEmpty)
        try await store.saveChanges(atomically: operations)
        #expect(server.requests.count == 1)
    }
}
