import Foundation
import Testing

@testable import Keel

struct DeduplicatingSyncTests {
    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aHundredConcurrentIdenticalReadsSendOneRequest() async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        try await withThrowingTaskGroup(of: SyncResponse.self) { group in
            for _ in 0..<100 {
                group.addTask { try await api.perform(DecoratorFixture.read("/notes", headers: ["Accept": "x"])) }
            }
            await waitUntil { api.waitingCount == 100 }
            base.open()
            var answers = 0
            for try await response in group {
                #expect(response.body == ["id": 1])
                answers += 1
            }
            #expect(answers == 100)
        }
        #expect(base.count == 1)
    }

    @Test func everyCallerGetsTheError() async throws {
        let base = HeldSync(.failure(.httpStatus(500, body: nil)))
        let api = DeduplicatingSync(base)
        let first = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        let second = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        await waitUntil { api.waitingCount == 2 }
        base.open()
        for task in [first, second] {
            let result = await task.result
            #expect(throws: SyncError.httpStatus(500, body: nil)) { try result.get() }
        }
        #expect(base.count == 1)
    }

    @Test func differentQueriesHeadersOrURLsAreSentApart() async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        let requests = [
            DecoratorFixture.read("/notes"),
            DecoratorFixture.read("/notes", query: [URLQueryItem(name: "page", value: "2")]),
            DecoratorFixture.read("/notes", headers: ["Authorization": "Bearer b"]),
            DecoratorFixture.read("/todos"),
        ]
        let tasks = requests.map { request in Task { try await api.perform(request) } }
        await waitUntil { base.count == 4 }
        base.open()
        for task in tasks { _ = try await task.value }
    }

    @Test(arguments: [SyncMethod.create, .update, .patch, .delete])
    func writesAreNeverShared(method: SyncMethod) async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        let tasks = (0..<2).map { _ in Task { try await api.perform(DecoratorFixture.request(method, "/notes/1")) } }
        await waitUntil { base.count == 2 }
        base.open()
        for task in tasks { _ = try await task.value }
    }

    @Test func cancellingOneCallerLeavesTheRequestToTheOthers() async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        let leaving = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        let staying = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        await waitUntil { api.waitingCount == 2 }
        leaving.cancel()
        let left = await leaving.result
        #expect(throws: SyncError.cancelled) { try left.get() }
        #expect(api.waitingCount == 1)
        base.open()
        #expect(try await staying.value.body == ["id": 1])
        #expect(base.count == 1)
        #expect(base.cancelledCount == 0)
    }

    @Test func cancellingEveryCallerCancelsTheRequest() async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        let tasks = (0..<3).map { _ in Task { try await api.perform(DecoratorFixture.read("/notes")) } }
        await waitUntil { api.waitingCount == 3 && base.count == 1 }
        for task in tasks { task.cancel() }
        for task in tasks {
            let result = await task.result
            #expect(throws: SyncError.cancelled) { try result.get() }
        }
        await waitUntil { base.cancelledCount == 1 }
        #expect(api.waitingCount == 0)
    }

    @Test func aReadAfterTheSharedOneFinishedSendsANewRequest() async throws {
        let base = HeldSync()
        base.open()
        let api = DeduplicatingSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        #expect(base.count == 2)
    }

    @Test func aCallerCancelledBeforeItAsksSendsNothing() async throws {
        let base = HeldSync()
        let api = DeduplicatingSync(base)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await api.perform(DecoratorFixture.read("/notes"))
        }
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(base.count == 0)
        #expect(api.waitingCount == 0)
    }
}
