import Foundation
import Keel
import Testing

/// A token provider that hands out `t1`, `t2`, … and counts its calls.
private final class TokenMint: Sendable {
    private let state = Lock<(calls: Int, refused: [String?])>((0, []))

    var calls: Int { state.withLock { $0.calls } }
    var refused: [String?] { state.withLock { $0.refused } }

    var provider: TokenAuthSync.TokenProvider {
        { [state] refused in
            let number = state.withLock { state in
                state.calls += 1
                state.refused.append(refused)
                return state.calls
            }
            await Task.yield()
            return "t\(number)"
        }
    }
}

/// A backend that accepts only `Authorization: Bearer <accepted>`, answering 401 otherwise.
private func server(accepting accepted: String) -> ScriptedSync {
    ScriptedSync { request throws(SyncError) in
        guard request.headers["Authorization"] == "Bearer \(accepted)" else {
            throw .httpStatus(401, body: ["detail": "Token is expired."])
        }
        return SyncResponse(body: ["ok": true])
    }
}

/// A token provider that answers `slow` only once ``open()`` is called, and counts the callers
/// it holds.
private final class SlowMint: Sendable {
    private let latch = Latch()

    var held: Int { latch.arrived }

    func open() { latch.open() }

    var provider: TokenAuthSync.TokenProvider {
        { [latch] _ in
            await latch.wait()
            return "slow"
        }
    }
}

struct TokenAuthSyncTests {
    private static let site = SyncFixture.url("https://api.example.test/v1")

    @Test func requestsCarryTheProvidersToken() async throws {
        let base = server(accepting: "t1")
        let mint = TokenMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        _ = try await api.perform(DecoratorFixture.read("https://api.example.test/notes"))
        #expect(base.requests.map { $0.headers["Authorization"] } == ["Bearer t1", "Bearer t1"])
        #expect(mint.calls == 1)
    }

    @Test func aRefusedTokenIsRefreshedOnceAndTheRequestSentAgain() async throws {
        let base = server(accepting: "t2")
        let mint = TokenMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        let response = try await api.perform(DecoratorFixture.read("/notes"))
        #expect(response.body == ["ok": true])
        #expect(mint.refused == [nil, "t1"])
        #expect(base.requests.map { $0.headers["Authorization"] } == ["Bearer t1", "Bearer t2"])
    }

    @Test func aSecondRefusalIsThrown() async throws {
        let base = server(accepting: "never")
        let mint = TokenMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        await #expect(throws: SyncError.httpStatus(401, body: ["detail": "Token is expired."])) {
            try await api.perform(DecoratorFixture.read("/notes"))
        }
        #expect(base.requests.count == 2)
        #expect(mint.calls == 2)
    }

    @Test func concurrentRefusalsShareOneRefresh() async throws {
        let base = server(accepting: "t2")
        let mint = TokenMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        try await withThrowingTaskGroup(of: SyncResponse.self) { group in
            for _ in 0..<20 { group.addTask { try await api.perform(DecoratorFixture.read("/notes")) } }
            for try await response in group { #expect(response.body == ["ok": true]) }
        }
        #expect(mint.calls == 2)
    }

    @Test(.timeLimit(.minutes(5)))
    func aCallerWaitingForTheSharedRefreshCanBeCancelled() async throws {
        let base = server(accepting: "slow")
        let mint = SlowMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        let first = Task { try await api.perform(DecoratorFixture.read("/a")) }
        while mint.held == 0 { await Task.yield() }
        let second = Task { try await api.perform(DecoratorFixture.read("/b")) }
        for _ in 0..<100 { await Task.yield() }
        second.cancel()
        let cancelled = await second.result
        #expect(throws: SyncError.cancelled) { try cancelled.get() }
        mint.open()
        #expect(try await first.value.body == ["ok": true])
        #expect(mint.held == 1)
        #expect(base.requests.map(\.path) == ["/v1/a"])
    }

    @Test(arguments: [
        "https://evil.example.test/steal", "http://api.example.test/notes", "https://api.example.test:8443/notes",
    ])
    func otherOriginsGetNoToken(url: String) async throws {
        let base = ScriptedSync()
        let mint = TokenMint()
        let api = TokenAuthSync(base, baseURL: Self.site, token: mint.provider)
        _ = try await api.perform(DecoratorFixture.read(url))
        #expect(base.requests.first?.headers["Authorization"] == nil)
        #expect(mint.calls == 0)
    }

    @Test func aRequestsOwnAuthorizationIsKept() async throws {
        let base = ScriptedSync()
        let api = TokenAuthSync(base, baseURL: Self.site, token: TokenMint().provider)
        _ = try await api.perform(DecoratorFixture.read("/notes", headers: ["authorization": "Bearer mine"]))
        #expect(base.requests.first?.headers == ["authorization": "Bearer mine"])
    }

    @Test func providerErrorsFailTheRequest() async throws {
        struct KeychainLocked: Error {}
        let base = ScriptedSync()
        let locked = TokenAuthSync(base, baseURL: Self.site) { _ in throw KeychainLocked() }
        await #expect(throws: SyncError.self) { try await locked.perform(DecoratorFixture.read("/notes")) }
        let offline = TokenAuthSync(base, baseURL: Self.site) { _ in throw SyncError.timedOut }
        await #expect(throws: SyncError.timedOut) { try await offline.perform(DecoratorFixture.read("/notes")) }
        #expect(base.requests.isEmpty)
    }

    @Test func basicAuthSendsEncodedCredentialsToTheOriginOnly() async throws {
        let base = ScriptedSync()
        let api = TokenAuthSync.basic(base, baseURL: Self.site, user: "ann", password: "s3cret:é")
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        _ = try await api.perform(DecoratorFixture.read("https://elsewhere.test/notes"))
        let expected = "Basic " + Data("ann:s3cret:é".utf8).base64EncodedString()
        #expect(base.requests.map { $0.headers["Authorization"] } == [expected, nil])
    }

    @Test func aRelativeURLGoesToTheDecoratorsOriginNotTheBackends() async throws {
        let own = try WireListener { _ in .json("{}") }
        let other = try WireListener { _ in .json("{}") }
        defer {
            own.stop()
            other.stop()
        }
        let api = TokenAuthSync(RESTSync(baseURL: other.baseURL), baseURL: own.baseURL) { _ in "secret" }
        _ = try await api.perform(DecoratorFixture.read("/notes"))
        #expect(other.requests.isEmpty)
        #expect(own.requests.map(\.target) == ["/notes"])
        #expect(own.requests.first?.header("Authorization") == "Bearer secret")
    }

    @Test func aRelativeURLIsResolvedAgainstTheBaseURLsPath() async throws {
        let base = ScriptedSync()
        let api = TokenAuthSync(base, baseURL: Self.site, token: TokenMint().provider)
        _ = try await api.perform(DecoratorFixture.read("notes/1"))
        #expect(base.requests.map { $0.url.absoluteString } == ["https://api.example.test/v1/notes/1"])
    }
}
