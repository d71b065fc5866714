import Foundation
import Testing

@testable import Keel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` a `RESTSync` makes for itself lives as long as the value and its copies,
/// and is invalidated after, instead of staying for the life of the process.
struct RESTSessionLifetimeTests {
    @Test func copiesShareTheDefaultSession() throws {
        let api = RESTSync(baseURL: URL(string: "http://127.0.0.1:9/")!)
        var copy = api
        copy.headers["Authorization"] = "Token abc"
        let first = try #require(api.transport as? OwnedURLSession)
        let second = try #require(copy.transport as? OwnedURLSession)
        #expect(first === second)
    }

    @Test func theDefaultSessionIsInvalidatedWhenTheLastCopyIsGone() async throws {
        weak var redirectGuard: CrossOriginRedirectGuard?
        do {
            let api = RESTSync(baseURL: URL(string: "http://127.0.0.1:9/")!)
            let copies = [api, api]
            let owner = try #require(copies[1].transport as? OwnedURLSession)
            redirectGuard = owner.session.delegate as? CrossOriginRedirectGuard
            #expect(redirectGuard != nil)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while redirectGuard != nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(redirectGuard == nil, "the session let its delegate go when it was invalidated")
    }

    @Test func aTransportPassedInIsLeftAsItIs() {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let api = RESTSync(transport: session)
        #expect(api.transport as? URLSession === session)
    }
}
