import Foundation
import Keel
import Testing

struct CancellableSyncTests {
    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func cancelAllByMethodAndPatternCancelsExactlyTheMatchingRequests() async throws {
        let base = HeldSync()
        let api = CancellableSync(base)
        let requests: [(SyncMethod, String, Bool)] = [
            (.read, "/users/7/invites", true),
            (.read, "/users/8/invites/", true),
            (.read, "/users/7/invites/3", false),
            (.read, "/users/invites", false),
            (.create, "/users/7/invites", false),
            (.read, "/teams/7/invites", false),
        ]
        let tasks = requests.map { method, path, _ in
            Task { try await api.perform(DecoratorFixture.request(method, path)) }
        }
        await waitUntil { base.count == requests.count }
        #expect(api.cancelAll(.read, matchingPathPattern: "/users/:id/invites") == 2)
        base.open()
        for (task, (_, path, cancelled)) in zip(tasks, requests) {
            let result = await task.result
            if cancelled {
                #expect(throws: SyncError.cancelled, "\(path)") { try result.get() }
            } else {
                #expect(throws: Never.self, "\(path)") { try result.get() }
            }
        }
        #expect(api.inFlightCount == 0)
    }

    @Test func cancelAllMatchingARouteCancelsTheRequestsOnItsPaths() async throws {
        let base = HeldSync()
        let api = CancellableSync(base)
        let routes = Routes("/users/:user_id/invites/:id", relationships: ["invites": "/users/:id/invites"])
        let paths: [(String, Bool)] = [
            ("/users/7/invites/3", true),
            ("/users/a%2Fb/invites/3", true),
            ("/users/7/invites", false),
            ("/users/7/invites/3/accept", false),
        ]
        let tasks = paths.map { path, _ in Task { try await api.perform(DecoratorFixture.read(path)) } }
        await waitUntil { base.count == paths.count }
        #expect(api.cancelAll(.read, matching: try #require(routes.default)) == 2)
        #expect(api.cancelAll(.delete, matching: try #require(routes.relationships["invites"])) == 0)
        base.open()
        for (task, (path, cancelled)) in zip(tasks, paths) {
            let result = await task.result
            if cancelled {
                #expect(throws: SyncError.cancelled, "\(path)") { try result.get() }
            } else {
                #expect(throws: Never.self, "\(path)") { try result.get() }
            }
        }
    }

    @Test func aPatternsTrailingSlashIsIgnored() async throws {
        let base = HeldSync()
        let api = CancellableSync(base)
        let task = Task { try await api.perform(DecoratorFixture.read("/users/7/invites")) }
        await waitUntil { base.count == 1 }
        #expect(api.cancelAll(matchingPathPattern: "/users/:id/invites/") == 1)
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
    }

    @Test func cancelAllWithoutArgumentsCancelsEverything() async throws {
        let base = HeldSync()
        let api = CancellableSync(base)
        let tasks = ["/a", "/b/c"].map { path in Task { try await api.perform(DecoratorFixture.read(path)) } }
        await waitUntil { api.inFlightCount == 2 && base.count == 2 }
        #expect(api.cancelAll() == 2)
        for task in tasks {
            let result = await task.result
            #expect(throws: SyncError.cancelled) { try result.get() }
        }
    }

    @Test func cancellingTheCallersTaskCancelsItsRequest() async throws {
        let base = HeldSync()
        let api = CancellableSync(base)
        let task = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        await waitUntil { base.count == 1 }
        task.cancel()
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        await waitUntil { base.cancelledCount == 1 }
        #expect(api.inFlightCount == 0)
    }

    @Test func answeredRequestsAreForgotten() async throws {
        let api = CancellableSync(SequenceSync([.respond(SyncResponse(status: 204))]))
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        #expect(api.inFlightCount == 0)
        #expect(api.cancelAll() == 0)
    }

    @Test func aRequestCancelledBeforeIsNotCountedAgain() async throws {
        let latch = Latch()
        let api = CancellableSync(LatchedSync(latch))
        let task = Task { try await api.perform(DecoratorFixture.read("/users/7/invites")) }
        await waitUntil { api.inFlightCount == 1 && latch.arrived == 1 }
        #expect(api.cancelAll() == 1)
        #expect(api.cancelAll() == 0)
        #expect(api.cancelAll(.read, matchingPathPattern: "/users/:id/invites") == 0)
        #expect(api.inFlightCount == 1)
        latch.open()
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
    }
}

/// A backend that answers only once its latch opens, whether its task is cancelled or not, so
/// that a cancelled request stays in flight as long as the test needs.
private struct LatchedSync: Sync {
    let latch: Latch

    init(_ latch: Latch) {
        self.latch = latch
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        await latch.wait()
        if Task.isCancelled { throw .cancelled }
        return SyncResponse(status: 204)
    }
}
