import Foundation
import Keel
import Testing

/// What ``AtomicOperations`` does with models that resolve to different backends or servers:
/// an atomic request or transaction refuses them before anything is sent; one request per
/// model sends each to its own backend.
@MainActor
struct AtomicBatchBackendsTests {
    final class Person: Model {
        override class var urlRoot: String? { "/people" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    final class RemotePerson: Model {
        override class var urlRoot: String? { "http://other.example/people" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    private let operations = AtomicOperations(endpoint: URL(string: "/operations"))

    nonisolated private static func answer(_ request: SyncRequest) -> SyncResponse {
        SyncResponse(status: 201, body: ["data": ["type": "people", "id": "7"]])
    }

    @Test func modelsOnTwoBackendsAreRefusedBeforeAnythingIsSent() async throws {
        let first = ScriptedSync(Self.answer)
        let second = ScriptedSync(Self.answer)
        let ann = Person(["name": "Ann"])
        let bob = Person(["name": "Bob"])
        ann.sync = first
        bob.sync = second
        var requests = 0
        for model in [ann, bob] { model.on("request") { _ in requests += 1 } }

        let error = await #expect(throws: SyncError.self) { try await operations.save([ann, bob]) }

        guard case .atomicBatchSpansBackends(let model, _)? = error else {
            Issue.record("expected atomicBatchSpansBackends, got \(String(describing: error))")
            return
        }
        #expect(model == "Person")
        #expect(first.requests.isEmpty && second.requests.isEmpty)
        #expect(requests == 0)
        #expect(ann.isNew && bob.isNew)
    }

    @Test func aModelOnAnotherServerThanTheEndpointIsRefused() async throws {
        let server = ScriptedSync(Self.answer)
        let ann = Person(["name": "Ann"])
        let remote = RemotePerson(["name": "Bob"])
        for model in [ann, remote] as [Model] { model.sync = server }

        let error = await #expect(throws: SyncError.self) { try await operations.save([ann, remote]) }

        guard case .atomicBatchSpansBackends(let model, _)? = error else {
            Issue.record("expected atomicBatchSpansBackends, got \(String(describing: error))")
            return
        }
        #expect(model == "RemotePerson")
        #expect(server.requests.isEmpty)
    }

    @Test func withoutAnEndpointEachModelGoesToItsOwnBackend() async throws {
        let first = ScriptedSync(Self.answer)
        let second = ScriptedSync(Self.answer)
        let ann = Person(["name": "Ann"])
        let bob = Person(["name": "Bob"])
        ann.sync = first
        bob.sync = second

        #expect(try await AtomicOperations(endpoint: nil).save([ann, bob]) == .oneByOne)
        #expect(first.requests.count == 1 && second.requests.count == 1)
        #expect(ann.id == 7 && bob.id == 7)
    }
}
