import Foundation
import Keel
import Testing

struct ConcurrencyLimitedSyncTests {
    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func noMoreThanTheLimitRunAtOnce() async throws {
        let base = HeldSync()
        let api = ConcurrencyLimitedSync(base, limit: 2)
        try await withThrowingTaskGroup(of: SyncResponse.self) { group in
            for index in 0..<6 { group.addTask { try await api.perform(DecoratorFixture.read("/notes/\(index)")) } }
            await waitUntil { base.count == 2 && api.waitingCount == 4 }
            #expect(api.runningCount == 2)
            base.open()
            for try await response in group { #expect(response.body == ["id": 1]) }
        }
        #expect(base.count == 6)
        #expect(base.maxInFlight == 2)
        #expect(api.runningCount == 0)
    }

    @Test func waitingRequestsGoInTheOrderTheyCame() async throws {
        let base = HeldSync()
        let api = ConcurrencyLimitedSync(base, limit: 1)
        var tasks: [Task<SyncResponse, any Error>] = []
        for index in 0..<4 {
            tasks.append(Task { try await api.perform(DecoratorFixture.read("/notes/\(index)")) })
            await waitUntil { base.count + api.waitingCount == index + 1 }
        }
        base.open()
        for task in tasks { _ = try await task.value }
        #expect(base.paths == ["/notes/0", "/notes/1", "/notes/2", "/notes/3"])
    }

    @Test func aRequestCancelledWhileWaitingIsNeverSent() async throws {
        let base = HeldSync()
        let api = ConcurrencyLimitedSync(base, limit: 1)
        let running = Task { try await api.perform(DecoratorFixture.read("/running")) }
        await waitUntil { base.count == 1 }
        let waiting = Task { try await api.perform(DecoratorFixture.read("/waiting")) }
        await waitUntil { api.waitingCount == 1 }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(api.waitingCount == 0)
        base.open()
        _ = try await running.value
        #expect(base.paths == ["/running"])
        #expect(api.runningCount == 0)
    }

    @Test func aFailureFreesTheSlot() async throws {
        let base = SequenceSync([.fail(.timedOut), .respond(SyncResponse(status: 204))])
        let api = ConcurrencyLimitedSync(base, limit: 1)
        await #expect(throws: SyncError.timedOut) { try await api.perform(DecoratorFixture.read("/a")) }
        #expect(try await api.perform(DecoratorFixture.read("/b")).status == 204)
        #expect(api.runningCount == 0)
    }
}
