import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// A child created offline under a parent created offline, on a nested route
/// (`/users/:user_id/invites` in Rails, `/drf/teams/<team_pk>/members/` in DRF), reaches the
/// real server under the parent's server id: the temporary id is replaced in the URL's path
/// segments, the child's collection path, and the local copy.
@Suite(.serialized)
struct NestedTemporaryIDTests {
    final class User: Model {
        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Invite: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Team: Model {
        override class var urlRoot: String? { "/drf/teams" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    final class Member: Model {
        override class var wireFormat: WireFormat { .djangoREST }
    }

    private func queueingCache(_ remote: RESTSync, file: URL) throws -> CachingSync {
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        return CachingSync(remote: remote, local: try SQLiteOfflineStore(fileURL: file), configuration: configuration)
    }

    @Test func anInviteQueuedUnderAnOfflineUserReachesRailsUnderTheUsersServerID() async throws {
        try await withTemporaryDirectory { directory in
            let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL, timeout: .seconds(60))
            let cache = try queueingCache(rails, file: directory.appending(path: "cache.sqlite"))
            let map = IdentityMap()
            let users = Collection<User>(
                factory: map.factory(for: User.self, collection: "/users"),
                url: "/users",
                sync: cache
            )
            let user = try await users.create(["name": .string("Ada " + UUID().uuidString)])
            let temporaryID = try #require(user.id?.stringValue)
            let invitesPath = "/users/\(temporaryID)/invites"
            let invites = Collection<Invite>(
                factory: map.factory(for: Invite.self, collection: invitesPath),
                url: invitesPath,
                sync: cache
            )
            let invite = try await invites.create(["email": "ada@example.com"])
            try await invite.save(["email": "ada@example.org"], patch: true)
            #expect(try invite.url().hasPrefix(invitesPath))

            let report = try await cache.replay()
            map.apply(report)
            #expect(report.stoppedBy == nil && report.failures.isEmpty, "stopped by \(String(describing: report.stoppedBy)), failures \(report.failures)")
            let userID = try #require(user.id?.intValue)
            let inviteID = try #require(invite.id?.intValue)
            #expect(
                report.sent.map(\.change.url.path) == [
                    "/users", "/users/\(userID)/invites", "/users/\(userID)/invites/\(inviteID)",
                ]
            )
            #expect(report.remaining == 0)
            #expect(invite["user_id"] == .int(userID))
            #expect(user.syncState == .synced && invite.syncState == .synced)

            let onServer = try await rails.perform(SyncRequest(method: .read, url: url("/users/\(userID)/invites")))
            #expect(onServer.body?.arrayValue?.map { $0["email"] } == ["ada@example.org"])
            let cached = try await cache.local.record(String(inviteID), in: "/users/\(userID)/invites")
            #expect(cached?["email"] == "ada@example.org")
            #expect(
                try await cache.local.record(String(inviteID), in: invitesPath) == nil,
                "moved to the server's path"
            )
        }
    }

    @Test func aMemberQueuedUnderAnOfflineTeamReachesDRFUnderTheTeamsServerID() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await TestServer.shared
            let drf = RESTSync(baseURL: server.baseURL, timeout: .seconds(60))
            let cache = try queueingCache(drf, file: directory.appending(path: "cache.sqlite"))
            let teams = Collection<Team>(url: "/drf/teams", sync: cache)
            let team = try await teams.create(["name": "Engines", "members": []])
            let temporaryID = try #require(team.id?.stringValue)
            let members = Collection<Member>(url: "/drf/teams/\(temporaryID)/members", sync: cache)
            let member = try await members.create(["email": "ada@example.com", "role": "lead"])
            try await member.save(["role": "chair"], patch: true)

            let report = try await cache.replay()
            #expect(report.stoppedBy == nil && report.failures.isEmpty, "stopped by \(String(describing: report.stoppedBy)), failures \(report.failures)")
            #expect(report.sent.count == 3 && report.remaining == 0)
            let teamID = try #require(report.sent.first?.response.body?["id"]?.intValue)
            let memberID = try #require(report.sent.dropFirst().first?.response.body?["id"]?.intValue)
            // path(percentEncoded:) keeps DRF's trailing slash, which URL.path drops.
            let membersPath = "/drf/teams/\(teamID)/members/"
            #expect(
                report.sent.map { $0.change.url.path(percentEncoded: false) }
                    == ["/drf/teams/", membersPath, membersPath + "\(memberID)/"]
            )

            let listed = try await drf.perform(SyncRequest(method: .read, url: url("/drf/teams/\(teamID)/members/")))
            #expect(listed.body?.arrayValue?.map { $0["role"] } == ["chair"])
            #expect(listed.body?[0]?["team"] == .int(teamID))
        }
    }
}
