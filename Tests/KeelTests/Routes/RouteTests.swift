import Foundation
import Keel
import Testing

/// Path patterns: filled from values with each segment encoded, a missing value a typed
/// error, and paths matched back to their parameters.
struct RouteTests {
    @Test func aRouteFillsItsParametersAsEncodedSegments() throws {
        let route: Route = "/users/:user_id/invites/:id"
        #expect(route.parameterNames == ["user_id", "id"])
        #expect(try route.path(["user_id": 1, "id": "a/b c"]) == "/users/1/invites/a%2Fb%20c")
        #expect(try Route("/search?q=:term").path(["term": "x"]) == "/search?q=x")
    }

    @Test func aMissingOrUnsafeValueIsATypedError() {
        #expect(throws: SyncError.missingRouteParameter("id", route: "/notes/:id")) {
            try Route("/notes/:id").path([:])
        }
        #expect(throws: SyncError.missingRouteParameter("id", route: "/notes/:id")) {
            try Route("/notes/:id").path(["id": nil])
        }
        #expect(throws: SyncError.unsafePathSegment("..")) { try Route("/notes/:id").path(["id": ".."]) }
    }

    @Test func aPathIsMatchedBackToItsParameters() {
        let route: Route = "/users/:user_id/invites/:id"
        #expect(route.parameters(in: "/users/1/invites/a%2Fb") == ["user_id": "1", "id": "a/b"])
        #expect(route.parameters(in: "https://api.example.com/users/1/invites/7?x=1") == ["user_id": "1", "id": "7"])
        #expect(route.parameters(in: "/users/1/invites/7/") == ["user_id": "1", "id": "7"])
        #expect(route.parameters(in: "/users/1/notes/7") == nil)
        #expect(route.parameters(in: "/users/1/invites") == nil)
        #expect(Route("/files/:name.json").parameters(in: "/files/report.json") == ["name": "report"])
    }

    @Test func aKeyPathParameterReadsANestedValue() throws {
        let route: Route = "/categories/:category.name/items/:id"
        #expect(route.parameterNames == ["category.name", "id"])
        #expect(try route.path(["category": ["name": "a b"], "id": 1]) == "/categories/a%20b/items/1")
        #expect(try route.path(["category.name": "books", "id": 1]) == "/categories/books/items/1")
        #expect(try Route("/shops/:shop.owner.id").path(["shop": ["owner": ["id": 4]]]) == "/shops/4")
        #expect(route.parameters(in: "/categories/books/items/1") == ["category.name": "books", "id": "1"])
    }

    @Test func aKeyPathWithoutItsValueIsATypedError() {
        let route: Route = "/categories/:category.name"
        #expect(throws: SyncError.missingRouteParameter("category.name", route: route.pattern)) {
            try route.path(["category": ["id": 1]])
        }
        #expect(throws: SyncError.missingRouteParameter("category", route: route.pattern)) {
            try route.path(["id": 1])
        }
    }

    @Test func aTailAfterAValueThatIsNotAnObjectIsLiteralText() throws {
        #expect(try Route("/files/:name.json").path(["name": "report"]) == "/files/report.json")
        #expect(try Route("/files/:file.name.json").path(["file": ["name": "a"]]) == "/files/a.json")
        #expect(Route("/files/:file.name.json").parameters(in: "/files/a.json") == ["file.name": "a"])
    }
}

/// Class, named and relationship routes drive the requests of models and collections.
@MainActor
struct ModelRouteTests {
    final class Invite: Model {
        override class var wireFormat: WireFormat { .rails }
        override class var routes: Routes {
            Routes(
                "/users/:user_id/invites/:id",
                methods: [.create: "/users/:user_id/invites"],
                named: ["resend": "/users/:user_id/invites/:id/resend", "pending": "/invites/pending"]
            )
        }
    }

    final class User: Model {
        static let invites = HasMany<Invite>("invites")
        override class var urlRoot: String? { "/users" }
        override class var relations: [any Relation] { [invites] }
        override class var routes: Routes { Routes(relationships: ["invites": "/accounts/:id/invitations"]) }
    }

    @Test func methodRoutesAreFilledFromTheAttributesByWireName() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(status: request.method == .create ? 201 : 200, body: ["id": 7, "user_id": 1])
        }
        let invite = Invite(["userId": 1, "email": "a@x"])
        invite.sync = backend
        try await invite.save()
        try await invite.save(["email": "b@x"])
        try await invite.save(options: SyncOptions(route: "resend"))
        #expect(try invite.url() == "/users/1/invites/7")
        #expect(
            backend.requests.map { "\($0.method) \($0.url.absoluteString)" } == [
                "create /users/1/invites", "patch /users/1/invites/7", "patch /users/1/invites/7/resend",
            ]
        )
    }

    @Test func anOwnerFillsItsIDAndItsRelationshipRoute() throws {
        let user = User(["id": 3, "invites": [["id": 7]]])
        let invites = user[User.invites]
        #expect(invites.url == "/accounts/3/invitations")
        #expect(try invites.get(7)?.requestURL(for: .update).absoluteString == "/users/3/invites/7")
    }

    @Test func aCollectionFetchesANamedRouteOfItsModels() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: [["id": 1, "user_id": 2]]) }
        let invites = Collection<Invite>(url: "/invites", sync: backend)
        try await invites.fetch(options: SyncOptions(route: "pending"))
        #expect(backend.requests.first?.url.absoluteString == "/invites/pending")
        await #expect(throws: SyncError.missingURL("Invite has no route named nope")) {
            _ = try await invites.fetch(options: SyncOptions(route: "nope"))
        }
    }

    final class Product: Model {
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.keys.paths["shopName"] = "shop.name"
            return format
        }
        override class var routes: Routes {
            Routes(
                "/categories/:category.display_name/products/:id",
                named: ["shop": "/shops/:shop.name/products/:id"]
            )
        }
    }

    @Test func keyPathParametersReadNestedAttributesByWireName() throws {
        let product = Product(["id": 3, "category": ["displayName": "Garden tools"], "shopName": "Ann's"])
        #expect(try product.requestURL(for: .read).absoluteString == "/categories/Garden%20tools/products/3")
        #expect(
            try product.requestURL(for: .read, options: SyncOptions(route: "shop")).absoluteString
                == "/shops/Ann's/products/3"
        )
    }

    @Test func aMissingParameterSendsNothing() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["id": 1]) }
        let invite = Invite(["email": "a@x"])
        invite.sync = backend
        await #expect(throws: SyncError.missingRouteParameter("user_id", route: "/users/:user_id/invites")) {
            try await invite.save()
        }
        #expect(backend.requests.isEmpty)
    }
}
