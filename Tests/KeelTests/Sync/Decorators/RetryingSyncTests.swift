import Foundation
import Keel
import Testing

struct RetryingSyncTests {
    private static let unavailable = SequenceSync.Step.failing(SyncResponse(status: 503))
    private static let ok = SequenceSync.Step.respond(SyncResponse(body: ["id": 1]))

    private func retrying(_ base: any Sync, _ sleeps: RecordedSleeps, maxAttempts: Int = 3) -> RetryingSync {
        RetryingSync(
            base,
            maxAttempts: maxAttempts,
            baseDelay: .milliseconds(100),
            maxDelay: .seconds(2),
            sleep: sleeps.sleep,
            jitter: { 1 },
            now: { Date(timeIntervalSince1970: 1_000_000) }
        )
    }

    @Test(arguments: [SyncMethod.read, .update, .delete])
    func idempotentRequestsAreRetriedUntilTheySucceed(method: SyncMethod) async throws {
        let base = SequenceSync([Self.unavailable, .fail(.transport("reset")), Self.ok])
        let sleeps = RecordedSleeps()
        let response = try await retrying(base, sleeps).perform(DecoratorFixture.request(method, "/notes/1"))
        #expect(response.body == ["id": 1])
        #expect(base.count == 3)
        #expect(sleeps.all == [.milliseconds(100), .milliseconds(200)])
    }

    @Test(arguments: [SyncMethod.create, .patch])
    func nonIdempotentRequestsAreSentOnce(method: SyncMethod) async throws {
        let base = SequenceSync([Self.unavailable, Self.ok])
        let sleeps = RecordedSleeps()
        await #expect(throws: SyncError.httpStatus(503, body: nil)) {
            try await retrying(base, sleeps).perform(DecoratorFixture.request(method, "/notes"))
        }
        #expect(base.count == 1)
        #expect(sleeps.all.isEmpty)
    }

    @Test func aCallOptsACreateIntoRetries() async throws {
        let base = SequenceSync([.fail(.timedOut), Self.ok])
        let request = DecoratorFixture.request(.create, "/notes", context: [RetryingSync.retryContextKey: true])
        _ = try await retrying(base, RecordedSleeps()).perform(request)
        #expect(base.count == 2)
    }

    @Test func aCallOptsAReadOutOfRetries() async throws {
        let base = SequenceSync([.fail(.timedOut), Self.ok])
        let request = DecoratorFixture.request(.read, "/notes", context: [RetryingSync.retryContextKey: false])
        await #expect(throws: SyncError.timedOut) { try await retrying(base, RecordedSleeps()).perform(request) }
        #expect(base.count == 1)
    }

    @Test func theLastErrorIsThrownAfterMaxAttempts() async throws {
        let base = SequenceSync([.fail(.transport("one")), .fail(.transport("two")), .fail(.transport("three"))])
        await #expect(throws: SyncError.transport("three")) {
            try await retrying(base, RecordedSleeps()).perform(DecoratorFixture.read("/notes"))
        }
        #expect(base.count == 3)
    }

    @Test(arguments: [404, 500, 401])
    func otherStatusesAreNotRetried(status: Int) async throws {
        let base = SequenceSync([.failing(SyncResponse(status: status)), Self.ok])
        await #expect(throws: SyncError.httpStatus(status, body: nil)) {
            try await retrying(base, RecordedSleeps()).perform(DecoratorFixture.read("/notes"))
        }
        #expect(base.count == 1)
    }

    @Test func validationErrorsAreNotRetried() async throws {
        let base = SequenceSync([.failing(SyncResponse(status: 422, body: ["title": ["can't be blank"]])), Self.ok])
        await #expect(throws: SyncError.self) {
            try await retrying(base, RecordedSleeps()).perform(DecoratorFixture.request(.update, "/notes/1"))
        }
        #expect(base.count == 1)
    }

    @Test func retryAfterSecondsSetTheDelayCappedAtMaxDelay() async throws {
        let base = SequenceSync([
            .failing(SyncResponse(status: 429, headers: ["Retry-After": "1"])),
            .failing(SyncResponse(status: 503, headers: ["Retry-After": "3600"])),
            Self.ok,
        ])
        let sleeps = RecordedSleeps()
        _ = try await retrying(base, sleeps).perform(DecoratorFixture.read("/notes"))
        #expect(sleeps.all == [.seconds(1), .seconds(2)])
    }

    @Test func retryAfterAnHTTPDateWaitsUntilThen() async throws {
        // 1,000,000 s after the epoch is Mon, 12 Jan 1970 13:46:40 GMT; the first header is 1 s later, the second is past.
        let base = SequenceSync([
            .failing(SyncResponse(status: 503, headers: ["Retry-After": "Mon, 12 Jan 1970 13:46:41 GMT"])),
            .failing(SyncResponse(status: 503, headers: ["Retry-After": "Mon, 12 Jan 1970 13:00:00 GMT"])),
            Self.ok,
        ])
        let sleeps = RecordedSleeps()
        _ = try await retrying(base, sleeps).perform(DecoratorFixture.read("/notes"))
        #expect(sleeps.all == [.seconds(1), .zero])
    }

    @Test func anUnreadableRetryAfterFallsBackToBackoff() async throws {
        let base = SequenceSync([.failing(SyncResponse(status: 503, headers: ["Retry-After": "soon"])), Self.ok])
        let sleeps = RecordedSleeps()
        _ = try await retrying(base, sleeps).perform(DecoratorFixture.read("/notes"))
        #expect(sleeps.all == [.milliseconds(100)])
    }

    @Test func backoffDoublesUpToMaxDelayScaledByJitter() async throws {
        let base = SequenceSync([.fail(.timedOut)])
        let sleeps = RecordedSleeps()
        let api = RetryingSync(
            base,
            maxAttempts: 6,
            baseDelay: .milliseconds(500),
            maxDelay: .seconds(3),
            sleep: sleeps.sleep,
            jitter: { 0.5 }
        )
        await #expect(throws: SyncError.timedOut) { try await api.perform(DecoratorFixture.read("/notes")) }
        let expected: [Duration] = [
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(1500), .milliseconds(1500),
        ]
        #expect(sleeps.all == expected)
        #expect(base.count == 6)
    }

    // The waits add up to 50 minutes: the test ends only because cancelling ends the wait
    // (the time limit turns a broken cancellation into a failure instead of a hang).
    @Test(.timeLimit(.minutes(10))) func cancellingTheTaskEndsTheWaitAtOnce() async throws {
        let base = SequenceSync([Self.unavailable])
        let api = RetryingSync(base, maxAttempts: 5, baseDelay: .seconds(600), maxDelay: .seconds(600))
        let task = Task { try await api.perform(DecoratorFixture.read("/notes")) }
        while base.count == 0 { await Task.yield() }
        task.cancel()
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(base.count == 1)
    }

    @Test func aCancelledTaskSendsNothing() async throws {
        let base = SequenceSync([Self.ok])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await RetryingSync(base).perform(DecoratorFixture.read("/notes"))
        }
        let result = await task.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(base.count == 0)
    }
}
