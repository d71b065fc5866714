import Foundation
import Keel
import KeelSQLite
import Testing

/// Every mention of a temporary id in a later queued change is replaced by the server's id:
/// path segments, query values, and string values at any depth of the body; a change that
/// mentions a record whose create cannot be sent waits behind it.
struct TemporaryIDMentionTests {
    private func queueing() throws -> (CachingSync, SwitchableRemote) {
        try makeCache { $0.sendsImmediately = false }
    }

    private func write(_ cache: CachingSync, _ method: SyncMethod, _ path: String, _ body: JSONValue? = nil)
        async throws -> SyncResponse
    {
        try await cache.perform(SyncRequest(method: method, url: url(path), body: body))
    }

    @Test func queryValuesAndNestedBodyValuesAreRewritten() async throws {
        let (cache, remote) = try queueing()
        let user = try await write(cache, .create, "/users", ["name": "Ada"])
        #expect(user.body?["id"] == "local-1")
        for number in 2...10 { _ = try await write(cache, .create, "/tags", ["name": .string("tag \(number)")]) }
        _ = try await write(
            cache,
            .create,
            "/invites?user_id=local-1&tag=local-10",
            [
                "owner": ["id": "local-1", "name": "Ada"],
                "user_ids": ["local-1", "local-10", 3],
                "note": "local-1 is not a whole value here",
                "title": "local-1x",
            ]
        )

        let report = try await cache.replay()
        #expect(report.stoppedBy == nil && report.failures.isEmpty && report.remaining == 0)
        let userID = try #require(try await cache.local.serverID(for: "local-1", in: "/users"))
        let tagID = try #require(try await cache.local.serverID(for: "local-10", in: "/tags"))
        let sent = try #require(remote.creates.last)
        let query = URLComponents(url: sent.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(
            query == [URLQueryItem(name: "user_id", value: "\(userID)"), URLQueryItem(name: "tag", value: "\(tagID)")]
        )
        #expect(sent.body?["owner"] == ["id": userID, "name": "Ada"])
        #expect(sent.body?["user_ids"] == [userID, tagID, 3])
        #expect(sent.body?["note"] == "local-1 is not a whole value here")
        #expect(sent.body?["title"] == "local-1x")
        let inviteID = try #require(report.sent.last?.response.body?["id"])
        let stored = try await cache.local.record("\(inviteID)", in: "/invites")
        #expect(stored?["owner"] == ["id": userID, "name": "Ada"], "the local copy holds what the server answered")
    }

    @Test func aChildOnANestedRouteMovesWithItsParentsServerID() async throws {
        let (cache, remote) = try queueing()
        _ = try await remote.serverWrite(.create, "/users", body: ["name": "Existing"])
        _ = try await write(cache, .create, "/users", ["name": "Ada"])
        let invite = try await write(cache, .create, "/users/local-1/invites", ["email": "a@x", "user_id": "local-1"])
        #expect(invite.body?["id"] == "local-2")
        _ = try await write(cache, .patch, "/users/local-1/invites/local-2", ["email": "b@x"])
        #expect(
            try await cache.queuedChanges().map(\.collection) == [
                "/users", "/users/local-1/invites", "/users/local-1/invites",
            ]
        )

        let report = try await cache.replay()
        #expect(report.stoppedBy == nil && report.failures.isEmpty)
        #expect(remote.received.map(\.url.path) == ["/users", "/users/2/invites", "/users/2/invites/1"])
        #expect(remote.creates.last?.body?["user_id"] == 2)
        #expect(try await cache.local.record("1", in: "/users/2/invites")?["email"] == "b@x")
        #expect(try await cache.local.record("local-2", in: "/users/local-1/invites") == nil)
        let update = try #require(report.records.first { $0.id == "local-2" })
        #expect(update.collection == "/users/local-1/invites", "reported where live models know the record")
        #expect(update.attributes?["id"] == 1 && update.state == .synced)
    }

    @Test func aChangeThatMentionsARejectedCreateWaitsBehindIt() async throws {
        let (cache, remote) = try queueing()
        _ = try await write(cache, .create, "/users", ["name": "Ada"])
        _ = try await write(cache, .create, "/users/local-1/invites", ["email": "a@x"])
        _ = try await write(cache, .create, "/notes", ["title": "Unrelated", "about": "local-1"])
        _ = try await write(cache, .create, "/notes", ["title": "Free"])
        let create = try #require(try await cache.queuedChanges().first)
        try await cache.local.mark(create, as: .failed(.httpStatus(422, body: nil)))

        let report = try await cache.replay()
        #expect(report.stoppedBy == nil)
        #expect(remote.received.map(\.url.path) == ["/notes"])
        #expect(remote.creates.first?.body?["title"] == "Free")
        #expect(try await cache.queuedChanges().map { $0.state == .pending } == [false, true, true])
    }

    @Test func fiveHundredParentsAndTheirChildrenReachTheServerPaired() async throws {
        let (cache, remote) = try queueing()
        let count = 500
        for number in 1...count {
            let parent = try await write(cache, .create, "/lists", ["name": .string("list \(number)")])
            let id = try #require(parent.body?["id"]?.stringValue)
            _ = try await write(
                cache,
                .create,
                "/lists/\(id)/items",
                ["name": .string("item \(number)"), "list": .string(id)]
            )
        }

        let report = try await cache.replay()
        #expect(report.stoppedBy == nil && report.failures.isEmpty)
        #expect(report.sent.count == 2 * count && report.remaining == 0)
        var listNames: [JSONValue: String] = [:]
        for sent in report.sent where sent.change.collection == "/lists" {
            listNames[try #require(sent.response.body?["id"])] = sent.response.body?["name"]?.stringValue
        }
        var paired = 0
        for sent in report.sent where sent.change.collection != "/lists" {
            let list = try #require(sent.change.body?["list"])
            #expect(sent.change.url.path == "/lists/\(list)/items")
            let itemName = sent.change.body?["name"]?.stringValue ?? ""
            if listNames[list].map({ "item" + $0.dropFirst(4) }) == itemName { paired += 1 }
        }
        #expect(paired == count)
        #expect(remote.received.count == 2 * count)
    }
}
