import Foundation
import Keel
import KeelTestServer
import Testing

struct PerformAllTests {
    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func everyRequestGetsItsOwnOutcomeInTheOrderGiven() async throws {
        let base = SequenceSync([
            .respond(SyncResponse(status: 200, body: ["id": 1])),
            .fail(.httpStatus(404, body: nil)),
            .respond(SyncResponse(status: 200, body: ["id": 3])),
        ])
        var reports: [BatchProgress] = []
        let outcomes = await base.performAll(
            ["/a", "/b", "/c"].map { DecoratorFixture.read($0) },
            maxConcurrent: 1
        ) { reports.append($0) }
        #expect(try outcomes[0].get().body == ["id": 1])
        #expect(throws: SyncError.httpStatus(404, body: nil)) { try outcomes[1].get() }
        #expect(try outcomes[2].get().body == ["id": 3])
        #expect(base.requests.map(\.path) == ["/a", "/b", "/c"])
        #expect(reports.map(\.completed) == [1, 2, 3])
        #expect(reports.last == BatchProgress(completed: 3, failed: 1, total: 3))
    }

    @Test func noMoreThanMaxConcurrentRequestsAreInFlight() async throws {
        let base = HeldSync()
        let batch = Task { await base.performAll((0..<10).map { DecoratorFixture.read("/n/\($0)") }, maxConcurrent: 3) }
        await waitUntil { base.count == 3 }
        for _ in 0..<100 { await Task.yield() }
        #expect(base.count == 3)
        base.open()
        let outcomes = await batch.value
        #expect(outcomes.count == 10)
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        #expect(base.maxInFlight == 3)
        #expect(Set(base.paths) == Set((0..<10).map { "/n/\($0)" }))
    }

    @Test func cancellingTheBatchSendsNothingMore() async throws {
        let base = HeldSync()
        let last = Lock<BatchProgress?>(nil)
        let batch = Task {
            await base.performAll((0..<6).map { DecoratorFixture.read("/n/\($0)") }, maxConcurrent: 2) { progress in
                last.withLock { $0 = progress }
            }
        }
        await waitUntil { base.count == 2 }
        batch.cancel()
        let outcomes = await batch.value
        #expect(outcomes.allSatisfy { if case .failure(.cancelled) = $0 { true } else { false } })
        #expect(base.count == 2)
        #expect(last.withLock { $0 } == BatchProgress(completed: 6, failed: 6, total: 6))
    }

    @Test func aBatchOfReadsAgainstTheServerAnswersEachOne() async throws {
        let api = RESTSync(baseURL: try await TestServer.shared.baseURL, timeout: .seconds(60))
        let notes = Collection<Model>(url: "/notes", sync: api)
        for title in ["One", "Two", "Three"] { try await notes.create(["title": .string(title)]) }
        let ids = notes.models.compactMap(\.id) + [999_999]
        let reads = ids.map { SyncRequest(method: .read, url: URL(string: "/notes/\($0)")!) }
        let outcomes = await api.performAll(reads, maxConcurrent: 2)
        #expect(try outcomes.prefix(3).map { try $0.get().body?["title"] } == ["One", "Two", "Three"])
        #expect(throws: SyncError.self) { try outcomes[3].get() }
    }
}
