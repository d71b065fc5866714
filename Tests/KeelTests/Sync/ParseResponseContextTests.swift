import Foundation
import Keel
import Testing

/// `parse` receives the request, the response and the route parameters that filled the URL
/// pattern when it reads a sync's answer (RestKit's `@metadata.routing`), and nothing outside
/// a sync.
@MainActor
struct ParseResponseContextTests {
    final class Invite: Model {
        var seen: [ResponseContext?] = []
        override class var routes: Routes {
            Routes("/users/:user_id/invites/:id", named: ["accept": Route("/invites/:id/accept", method: .create)])
        }
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            seen.append(options.responseContext)
            return response.objectValue
        }
    }

    final class Follower: Model {
        var seen: [ResponseContext?] = []
        override class var routes: Routes { Routes(named: ["followers": "/users/:user_id/followers"]) }
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            seen.append(options.responseContext)
            return response.objectValue
        }
    }

    final class Followers: Collection<Follower> {
        var seen: [ResponseContext?] = []
        override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
            seen.append(options.responseContext)
            return super.parse(response, options: options)
        }
    }

    @Test func aFetchGivesTheRequestTheResponseAndTheRouteParameters() async throws {
        let backend = ScriptedSync { _ in
            SyncResponse(status: 200, headers: ["ETag": "v3"], body: ["id": 7, "state": "sent"])
        }
        let invite = Invite(["user_id": 1, "id": 7])
        invite.sync = backend
        try await invite.fetch()
        let context = try #require(invite.seen.last ?? nil)
        #expect(context.request.url.absoluteString == "/users/1/invites/7")
        #expect(context.request.method == .read)
        #expect(context.response.status == 200)
        #expect(context.response.headers["etag"] == "v3")
        #expect(context.route == "/users/:user_id/invites/:id")
        #expect(context.routeParameters == ["user_id": "1", "id": "7"])
    }

    @Test func aSaveAndANamedRouteGiveTheirOwnRequests() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(status: request.method == .create ? 201 : 200, body: ["id": 7])
        }
        let invite = Invite(["user_id": 1, "id": 7])
        invite.sync = backend
        try await invite.save(["state": "read"])
        try await invite.perform(route: "accept")
        let contexts = invite.seen.compactMap { $0 }
        #expect(contexts.map(\.request.method) == [.update, .create])
        #expect(contexts.map(\.response.status) == [200, 201])
        #expect(contexts.last?.route == Route("/invites/:id/accept", method: .create))
        #expect(contexts.last?.routeParameters == ["id": "7"])
    }

    @Test func aCollectionFetchGivesItToTheCollectionsAndTheModelsParse() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: [["id": 1], ["id": 2]]) }
        let followers = Followers(sync: backend)
        try await followers.fetch(options: SyncOptions(route: "followers", routeParameters: ["user_id": 9]))
        let context = try #require(followers.seen.last ?? nil)
        #expect(context.request.url.absoluteString == "/users/9/followers")
        #expect(context.routeParameters == ["user_id": "9"])
        #expect(followers.count == 2)
        #expect(followers.allSatisfy { $0.seen.map { $0?.routeParameters } == [["user_id": "9"]] })
    }

    @Test func theChangeEventsOfTheAnswerCarryIt() async throws {
        let invite = Invite(["user_id": 1, "id": 7])
        invite.sync = ScriptedSync { _ in SyncResponse(body: ["id": 7, "state": "sent"]) }
        var statuses: [Int?] = []
        invite.on("change:state") { event in statuses.append(event.options.responseContext?.response.status) }
        try await invite.fetch()
        #expect(statuses == [200])
    }

    @Test func anIdentityMapsFindGivesTheRead() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 200, body: ["id": 7]) }
        let invite = try #require(try await IdentityMap().find(Invite.self, id: 7, in: "/invites", from: backend))
        let context = try #require(invite.seen.last ?? nil)
        #expect(context.request.url.absoluteString == "/invites/7")
        #expect(context.response.body == ["id": 7])
    }

    @Test func outsideASyncThereIsNone() {
        let invite = Invite(["id": 1], options: ChangeOptions(parse: true))
        #expect(invite.seen.count == 1)
        #expect(invite.seen.first == .some(nil))
    }

    @Test func aContextCopyKeepsItsValuesAndEqualContextsHashAlike() throws {
        let request = SyncRequest(method: .read, url: try #require(URL(string: "/users/1/invites/7")))
        let response = SyncResponse(status: 200, body: ["id": 7])
        let context = ResponseContext(
            request: request,
            response: response,
            route: "/users/:user_id/invites/:id",
            routeParameters: ["user_id": "1", "id": "7"]
        )
        let copy = context
        let same = ResponseContext(
            request: request,
            response: response,
            route: "/users/:user_id/invites/:id",
            routeParameters: ["user_id": "1", "id": "7"]
        )
        let other = ResponseContext(request: request, response: SyncResponse(status: 201, body: ["id": 7]))
        #expect(copy.request == request && copy.response == response)
        #expect(copy.routeParameters == ["user_id": "1", "id": "7"])
        #expect(context == same && context.hashValue == same.hashValue)
        #expect(context != other)
        #expect(Set([context, copy, same, other]).count == 2)
    }
}
