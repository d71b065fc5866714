import Foundation
import Keel
import Testing

/// Named routes that carry their method: a saved user follows with `POST /users/:id/follow`
/// (RestKit's named routes, `model.perform(route:)`).
@MainActor
struct NamedRouteActionTests {
    final class User: Model {
        override class var urlRoot: String? { "/users" }
        override class var routes: Routes {
            Routes(named: [
                "follow": Route("/users/:id/follow", method: .create),
                "unfollow": Route("/users/:id/follow", method: .delete),
                "profile": "/users/:id/profile",
            ])
        }
    }

    @Test func performSendsTheRoutesMethodToItsPathAndSetsTheAnswer() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(body: request.method == .create ? ["id": 1, "following": true] : nil)
        }
        let user = User(["id": 1, "name": "Ann"])
        user.sync = backend
        var events: [String] = []
        user.on("all") { event in events.append(event.name) }

        try await user.perform(route: "follow")
        #expect(user["following"] == true)
        try await user.perform(route: "unfollow")
        try await user.perform(route: "profile")

        #expect(
            backend.requests.map { "\($0.method) \($0.url.absoluteString)" } == [
                "create /users/1/follow", "delete /users/1/follow", "read /users/1/profile",
            ]
        )
        #expect(backend.requests.map(\.body) == [["id": 1, "name": "Ann"], nil, nil])
        #expect(events == ["request", "change:following", "change", "sync", "request", "sync", "request", "sync"])
        #expect(user.isNew == false)
    }

    @Test func anAnswerWithoutARecordLeavesUnsavedChangesUnsaved() async throws {
        let user = User(["id": 1])
        user.sync = ScriptedSync(always: SyncResponse(status: 204))
        try await user.save()
        user["name"] = "Ann"
        try await user.perform(route: "unfollow")
        #expect(user.unsavedChanges == ["name": "Ann"])
    }

    @Test func anUnknownRouteOrAMissingParameterSendsNothing() async {
        let backend = ScriptedSync()
        let user = User(["name": "Ann"])
        user.sync = backend
        await #expect(throws: SyncError.missingURL("User has no route named nope")) {
            try await user.perform(route: "nope")
        }
        await #expect(throws: SyncError.missingRouteParameter("id", route: "/users/:id/follow")) {
            try await user.perform(route: "follow")
        }
        #expect(backend.requests.isEmpty)
    }

    @Test func aRouteKeepsItsMethodAndAPlainPatternHasNone() {
        #expect(Route("/users/:id/follow", method: .create).method == .create)
        #expect(Route("/users/:id").method == nil)
        #expect(Route("/users/:id/follow", method: .create) != Route("/users/:id/follow"))
    }
}
