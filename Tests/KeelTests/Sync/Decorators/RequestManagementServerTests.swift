import Foundation
import Keel
import KeelTestServer
import Testing

/// Records what its base answered, or the error it threw, on the way through.
private final class OutcomeSpy: Sync {
    private let base: any Sync
    private let recorded = Lock<[Result<Int, SyncError>]>([])

    init(_ base: any Sync) { self.base = base }

    /// The status of each answer, or the error.
    var outcomes: [Result<Int, SyncError>] { recorded.withLock { $0 } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        do {
            let response = try await base.perform(request)
            recorded.withLock { $0.append(.success(response.status)) }
            return response
        } catch {
            recorded.withLock { $0.append(.failure(error)) }
            throw error
        }
    }
}

/// Holds every request until ``open()``, then passes it on; counts what it holds.
private final class Gate: Sync {
    private let base: any Sync
    private let latch = Latch()

    init(_ base: any Sync) { self.base = base }

    var held: Int { latch.arrived }

    func open() { latch.open() }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        await latch.wait()
        return try await base.perform(request)
    }
}

private func rest() async throws -> RESTSync {
    RESTSync(baseURL: try await TestServer.shared.baseURL, timeout: .seconds(60))
}

/// How many requests the flaky endpoint received for `key`.
private func attempts(_ key: String) async throws -> Int {
    let response = try await rest().perform(SyncRequest(method: .read, url: SyncFixture.url("/flaky/\(key)/attempts")))
    return try #require(response.body?["attempts"]?.intValue)
}

/// Asks the test server for a bearer token that lives `lifetime` seconds.
private func issueToken(for user: String, password: String, lifetime: Int) async throws -> String {
    let response = try await rest().perform(
        SyncRequest(
            method: .create,
            url: SyncFixture.url("/auth/token"),
            body: ["username": .string(user), "password": .string(password), "lifetime": .int(lifetime)]
        )
    )
    guard let token = response.body?["access"]?.stringValue else { throw SyncError.invalidResponse("no token") }
    return token
}

@MainActor
struct RequestManagementServerTests {
    // MARK: - Retries

    @Test func aFetchIsRetriedThroughTwo503sWithRetryAfter() async throws {
        let key = SyncFixture.unique("retry")
        let record = Model(["id": .string(key)])
        record.urlRoot = "/flaky"
        let sleeps = RecordedSleeps()
        record.sync = RetryingSync(try await rest(), maxAttempts: 3, baseDelay: .seconds(30), sleep: sleeps.sleep)
        var options = SyncOptions()
        options.query = ["failures": "2"]
        try await record.fetch(options: options)
        #expect(record["attempts"] == 3)
        #expect(try await attempts(key) == 3)
        #expect(sleeps.all == [.zero, .zero], "the server's Retry-After: 0, not the 30 s backoff")
    }

    @Test func a429IsRetried() async throws {
        let key = SyncFixture.unique("throttled")
        let sleeps = RecordedSleeps()
        let api = RetryingSync(try await rest(), baseDelay: .seconds(30), sleep: sleeps.sleep)
        let request = SyncRequest(
            method: .update,
            url: SyncFixture.url("/flaky/\(key)"),
            body: [:],
            query: [
                URLQueryItem(name: "failures", value: "1"), URLQueryItem(name: "status", value: "429"),
                URLQueryItem(name: "retry_after", value: "2"),
            ]
        )
        let response = try await api.perform(request)
        #expect(response.body?["method"] == "PUT")
        #expect(response.body?["attempts"] == 2)
        #expect(sleeps.all == [.seconds(2)])
    }

    @Test func aCreateIsSentOnceUnlessTheCallOptsIn() async throws {
        let key = SyncFixture.unique("create")
        let api = RetryingSync(try await rest(), baseDelay: .seconds(30))
        let collection = Collection<Model>(url: "/flaky/\(key)", sync: api)
        var options = SyncOptions()
        options.query = ["failures": "1"]
        await #expect(throws: SyncError.self) { _ = try await collection.create(["title": "Hi"], options: options) }
        #expect(try await attempts(key) == 1)

        options.custom[RetryingSync.retryContextKey] = true
        // Attempts 2 and 3 fail too; the third attempt of this call, the fourth request, succeeds.
        options.query = ["failures": "3"]
        let created = try await collection.create(["title": "Hi"], options: options)
        #expect(created["attempts"] == 4)
    }

    // MARK: - Conditional reads

    @Test func aSecondFetchIsAnswered304AndLeavesTheModelAsItIs() async throws {
        let key = SyncFixture.unique("doc")
        let plain = try await rest()
        _ = try await plain.perform(
            SyncRequest(method: .update, url: SyncFixture.url("/documents/\(key)"), body: ["title": "First"])
        )
        let spy = OutcomeSpy(plain)
        let document = Model(["id": .string(key)])
        document.urlRoot = "/documents"
        document.sync = ConditionalSync(spy)
        try await document.fetch()
        #expect(document["title"] == "First")

        let log = SyncEventLog()
        log.watch(document)
        let response = try await document.fetch()
        #expect(spy.outcomes.last == .failure(.httpStatus(304, body: nil)))
        #expect(response.status == 200)
        #expect(response.headers["x-full-reads"] == "1", "the server sent the body once")
        #expect(document["title"] == "First")
        #expect(log.entries == ["request", "sync"])

        _ = try await plain.perform(
            SyncRequest(method: .update, url: SyncFixture.url("/documents/\(key)"), body: ["title": "Second"])
        )
        try await document.fetch()
        #expect(spy.outcomes.last == .success(200))
        #expect(document["title"] == "Second")
        #expect(document["version"] == 2)
    }

    // MARK: - Shared reads

    @Test func aHundredConcurrentIdenticalFetchesReachTheServerOnce() async throws {
        let key = SyncFixture.unique("shared")
        let gate = Gate(try await rest())
        let api = DeduplicatingSync(gate)
        let request = SyncRequest(
            method: .read,
            url: SyncFixture.url("/flaky/\(key)"),
            query: [URLQueryItem(name: "failures", value: "0")]
        )
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await api.perform(request).body?["attempts"]?.intValue ?? 0 } }
            while gate.held == 0 { await Task.yield() }
            // Let the other 99 callers join the request the gate holds.
            for _ in 0..<1000 { await Task.yield() }
            gate.open()
            for try await attempt in group { #expect(attempt == 1) }
        }
        #expect(gate.held == 1)
        #expect(try await attempts(key) == 1)
    }

    // MARK: - Tokens

    @Test func anExpiredTokenIsRefreshedOnceAndTheFetchSucceeds() async throws {
        let server = try await TestServer.shared
        let issued = Lock(0)
        let api = TokenAuthSync(try await rest(), baseURL: server.baseURL) { refused in
            issued.withLock { $0 += 1 }
            // The first token has expired before it is used; the refreshed one lives 5 minutes.
            return try await issueToken(for: "ann", password: "secret", lifetime: refused == nil ? 0 : 300)
        }
        let me = Model()
        me.sync = api
        var options = SyncOptions()
        options.url = "/auth/me"
        try await me.fetch(options: options)
        #expect(me["username"] == "ann")
        #expect(issued.withLock { $0 } == 2)
    }

    @Test func concurrentRequestsWithAnExpiredTokenShareOneRefresh() async throws {
        let server = try await TestServer.shared
        let issued = Lock(0)
        let api = TokenAuthSync(try await rest(), baseURL: server.baseURL) { refused in
            issued.withLock { $0 += 1 }
            return try await issueToken(for: "bob", password: "hunter2", lifetime: refused == nil ? 0 : 300)
        }
        let request = SyncRequest(method: .read, url: SyncFixture.url("/auth/me"))
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<10 { group.addTask { try await api.perform(request).body?["username"]?.stringValue } }
            for try await name in group { #expect(name == "bob") }
        }
        #expect(issued.withLock { $0 } == 2)
    }

    @Test func theTokenGoesToTheBaseURLsOriginOnly() async throws {
        let server = try await TestServer.shared
        let api = TokenAuthSync(try await rest(), baseURL: server.baseURL) { _ in "sekrit" }
        let same = try await api.perform(SyncRequest(method: .read, url: server.url("echo")))
        #expect(same.body?["headers"]?["authorization"] == "Bearer sekrit")
        let other = try #require(URL(string: "http://localhost:\(server.port)/echo"))
        let elsewhere = try await api.perform(SyncRequest(method: .read, url: other))
        #expect(elsewhere.body?["headers"]?["authorization"] == nil)
    }

    // MARK: - Cancelling by pattern

    @Test func cancellingByPatternStopsASlowRequestAtOnce() async throws {
        let api = CancellableSync(try await rest())
        let clock = ContinuousClock()
        let start = clock.now
        let slow = Task {
            try await api.perform(
                SyncRequest(
                    method: .read,
                    url: SyncFixture.url("/slow"),
                    query: [URLQueryItem(name: "seconds", value: "20")]
                )
            )
        }
        while api.inFlightCount == 0 { await Task.yield() }
        #expect(api.cancelAll(.read, matchingPathPattern: "/echo/:anything") == 0)
        #expect(api.cancelAll(.read, matchingPathPattern: "/slow") == 1)
        let result = await slow.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(clock.now - start < .seconds(15), "a generous bound: the server sleeps 20 seconds")
    }

    // MARK: - All together

    @Test func aModelFetchesThroughEveryDecoratorUnchanged() async throws {
        let server = try await TestServer.shared
        let key = SyncFixture.unique("stacked")
        let plain = try await rest()
        _ = try await plain.perform(
            SyncRequest(method: .update, url: SyncFixture.url("/documents/\(key)"), body: ["title": "Stacked"])
        )
        let spy = OutcomeSpy(plain)
        let api = DeduplicatingSync(
            RetryingSync(ConditionalSync(TokenAuthSync(spy, baseURL: server.baseURL) { _ in "unused-by-documents" }))
        )
        let document = Model(["id": .string(key)])
        document.urlRoot = "/documents"
        document.sync = api
        try await document.fetch()
        try await document.fetch()
        #expect(document["title"] == "Stacked")
        #expect(spy.outcomes == [.success(200), .failure(.httpStatus(304, body: nil))])
        document["title"] = "Saved through the stack"
        try await document.save()
        try await document.fetch()
        #expect(spy.outcomes.last == .success(200))
        #expect(document["title"] == "Saved through the stack")
    }
}
