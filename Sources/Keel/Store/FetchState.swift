import Foundation
import Observation

/// The state of the requests that load one set of records (one class path and query),
/// shared by every ``LiveQuery`` that loads them: whether a request is in flight, when the
/// last one succeeded, its error, and whether the answer has been invalidated since.
///
/// It is `Observable`, so a view that shows a query's ``LiveQuery/isFetching`` or
/// ``LiveQuery/error`` updates when they change.
final class FetchState: Observable {
    private let registrar = ObservationRegistrar()

    /// Whether a request is in flight.
    var isFetching = false {
        willSet { registrar.willSet(self, keyPath: \.isFetching) }
        didSet { registrar.didSet(self, keyPath: \.isFetching) }
    }

    /// When the last request succeeded.
    var lastUpdated: Date? {
        willSet { registrar.willSet(self, keyPath: \.lastUpdated) }
        didSet { registrar.didSet(self, keyPath: \.lastUpdated) }
    }

    /// The error of the last request, until one succeeds.
    var error: SyncError? {
        willSet { registrar.willSet(self, keyPath: \.error) }
        didSet { registrar.didSet(self, keyPath: \.error) }
    }

    /// The answer of the last successful request.
    var lastResponse: SyncResponse? {
        willSet { registrar.willSet(self, keyPath: \.lastResponse) }
        didSet { registrar.didSet(self, keyPath: \.lastResponse) }
    }

    /// Whether the records were invalidated since the last successful request.
    var isInvalidated = false {
        willSet { registrar.willSet(self, keyPath: \.isInvalidated) }
        didSet { registrar.didSet(self, keyPath: \.isInvalidated) }
    }

    /// The tags the queries that load these records were given.
    var tags: Set<String> = []

    /// Wakes the queries that keep these records loaded: on each invalidation, and when
    /// their answer goes stale.
    let wakeUps = SnapshotSignal()

    /// How many times the records were invalidated.
    private(set) var invalidationCount = 0

    /// The clock ``unobservedSince`` is read from.
    private let clock: StoreClock
    /// How many live queries load these records; while any does, they are never released.
    private var observerCount = 0
    /// When the last live query that loads these records went away.
    private var unobservedSince: ContinuousClock.Instant?
    /// How long the records are kept once no live query loads them: the longest `gcTime`
    /// of the queries that did.
    private var gcTime = Duration.zero
    /// The client id numbers of the models the last successful request brought.
    var loadedRecords: [Int] = []

    init(clock: StoreClock) {
        self.clock = clock
    }

    /// A live query now loads these records.
    func addObserver(gcTime: Duration) {
        observerCount += 1
        unobservedSince = nil
        self.gcTime = max(self.gcTime, gcTime)
    }

    /// A live query that loaded these records went away.
    func removeObserver() {
        observerCount -= 1
        if observerCount == 0 { unobservedSince = clock.now }
    }

    /// Whether no live query has loaded these records for their `gcTime`, and no request
    /// for them is in flight.
    func isCollectable(at now: ContinuousClock.Instant) -> Bool {
        guard observerCount == 0, !isFetching, let unobservedSince else { return false }
        return now - unobservedSince >= gcTime
    }

    /// The callers waiting for the request in flight.
    private var waiters: [CheckedContinuation<Result<Void, SyncError>, Never>] = []

    /// How many callers wait for the request in flight.
    var waitingCount: Int { waiters.count }

    func readIsFetching() -> Bool {
        registrar.access(self, keyPath: \.isFetching)
        return isFetching
    }

    func readLastUpdated() -> Date? {
        registrar.access(self, keyPath: \.lastUpdated)
        return lastUpdated
    }

    func readLastResponse() -> SyncResponse? {
        registrar.access(self, keyPath: \.lastResponse)
        return lastResponse
    }

    func readError() -> SyncError? {
        registrar.access(self, keyPath: \.error)
        return error
    }

    func readIsInvalidated() -> Bool {
        registrar.access(self, keyPath: \.isInvalidated)
        return isInvalidated
    }

    /// Marks the records invalidated and wakes the queries that keep them loaded.
    func invalidate() {
        invalidationCount += 1
        isInvalidated = true
        wakeUps.signal()
    }

    /// Runs `request`, or waits for the one in flight: identical requests share one.
    func fetch(_ request: () async throws(SyncError) -> Void) async throws(SyncError) {
        if isFetching {
            let outcome: Result<Void, SyncError> = await withCheckedContinuation { waiters.append($0) }
            try outcome.get()
            return
        }
        isFetching = true
        let invalidationsBefore = invalidationCount
        let outcome: Result<Void, SyncError>
        do {
            try await request()
            outcome = .success(())
            lastUpdated = Date()
            error = nil
            // An invalidation while the request was in flight may be newer than its answer.
            if invalidationCount == invalidationsBefore { isInvalidated = false }
        } catch {
            outcome = .failure(error)
            self.error = error
        }
        isFetching = false
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume(returning: outcome) }
        try outcome.get()
    }
}
