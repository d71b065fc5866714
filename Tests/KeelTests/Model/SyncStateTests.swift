import Keel
import Observation
import Testing

/// A backend that answers with a fixed response or error.
private final class FixedSync: Sync {
    let result: Result<SyncResponse, SyncError>

    init(_ result: Result<SyncResponse, SyncError>) { self.result = result }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { try result.get() }
}

/// The same, as a backend whose failures models report in their sync state.
private final class ReportingSync: SyncStateReporting {
    let error: SyncError

    init(_ error: SyncError) { self.error = error }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { throw error }
}

/// Counts `onChange` calls (they must be `Sendable`).
private final class Changes: Sendable {
    private let state = Lock(0)
    var count: Int { state.withLock { $0 } }
    func record() { state.withLock { $0 += 1 } }
}

/// Every model has an observable sync state, reported by the backend's responses.
struct SyncStateTests {
    private func note(_ sync: any Sync) -> Model {
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = sync
        return note
    }

    @Test func aResponseThatSaysPendingMakesTheModelPendingWithAnEvent() async throws {
        let pending = SyncResponse(status: 201, headers: [SyncState.headerName: "pending"], body: ["id": 1])
        let note = note(FixedSync(.success(pending)))
        var events: [String] = []
        note.on("all") { event in events.append(event.name) }
        try await note.save(["title": "Offline"])
        #expect(note.syncState == .pending)
        #expect(events.contains("syncState"))
        let stateIndex = try #require(events.firstIndex(of: "syncState"))
        #expect(try stateIndex < #require(events.firstIndex(of: "sync")))
    }

    @Test func aPlainSuccessfulSyncMakesTheModelSyncedAgain() async throws {
        let pending = SyncResponse(status: 200, headers: [SyncState.headerName: "pending"], body: ["id": 1])
        let note = note(FixedSync(.success(pending)))
        try await note.fetch()
        note.sync = FixedSync(.success(SyncResponse(status: 200, body: ["id": 1])))
        try await note.fetch()
        #expect(note.syncState == .synced)
    }

    @Test func anOrdinaryBackendsFailureLeavesTheStateAndTheEventsAsInBackbone() async throws {
        let note = note(FixedSync(.failure(.httpStatus(500, body: nil))))
        var events: [String] = []
        note.on("all") { event in events.append(event.name) }
        await #expect(throws: SyncError.self) { try await note.fetch() }
        #expect(note.syncState == .synced)
        #expect(events == ["request", "error"])
    }

    @Test func aReportingBackendsFailureMakesTheModelFailedBeforeTheErrorEvent() async throws {
        let note = note(ReportingSync(.httpStatus(422, body: nil)))
        var events: [String] = []
        note.on("all") { event in events.append(event.name) }
        await #expect(throws: SyncError.self) { try await note.save(["title": "x"]) }
        #expect(note.syncState == .failed(.httpStatus(422, body: nil)))
        #expect(events.suffix(2) == ["syncState", "error"])
    }

    @Test func aReportingBackendUnderDecoratorsStillMakesTheModelFailed() async throws {
        let note = note(RetryingSync(LoggingSync(ReportingSync(.httpStatus(422, body: nil))) { _ in }))
        await #expect(throws: SyncError.self) { try await note.save(["title": "x"]) }
        #expect(note.syncState == .failed(.httpStatus(422, body: nil)))
    }

    @Test func theSyncStateIsObservable() async throws {
        let pending = SyncResponse(status: 200, headers: [SyncState.headerName: "conflict"], body: ["id": 1])
        let note = note(FixedSync(.success(pending)))
        let changes = Changes()
        withObservationTracking {
            _ = note.syncState
        } onChange: {
            changes.record()
        }
        try await note.fetch()
        #expect(note.syncState == .conflict)
        #expect(changes.count == 1)
    }

    @Test func theHeaderNamesEveryState() {
        for state: SyncState in [.synced, .pending, .conflict, .failed(.httpStatus(409, body: nil))] {
            let response = SyncResponse(headers: [SyncState.headerName: state.headerValue])
            #expect(SyncState(response: response) == state)
        }
    }

    @Test func aResponseWithoutTheHeaderIsSyncedAndTheHeaderIsReadByItsFirstWord() {
        #expect(SyncState(response: SyncResponse(status: 201, body: ["id": 1])) == .synced)
        #expect(SyncState(response: SyncResponse(headers: [SyncState.headerName: "  pending"])) == .pending)
        #expect(
            SyncState(response: SyncResponse(headers: ["x-keel-sync-state": "failed 412 late"]))
                == .failed(.httpStatus(412, body: nil))
        )
        #expect(SyncState(response: SyncResponse(headers: [SyncState.headerName: "unknown"])) == .synced)
    }
}
