import Testing

@testable import Keel

/// A class's routes: the method's own route, else the default, whether or not the class
/// routes any method of its own.
struct RoutesByMethodTests {
    @Test func withoutMethodRoutesEveryMethodGetsTheDefault() {
        let routes = Routes("/notes/:id")
        for method in [SyncMethod.create, .read, .update, .patch, .delete] {
            #expect(routes.route(for: method) == "/notes/:id")
        }
        #expect(Routes().route(for: .create) == nil)
    }

    @Test func aMethodsOwnRouteWinsOverTheDefault() {
        let routes = Routes("/notes/:id", methods: [.create: "/users/:user_id/notes"])
        #expect(routes.route(for: .create) == "/users/:user_id/notes")
        #expect(routes.route(for: .update) == "/notes/:id")
        #expect(Routes(methods: [.delete: "/trash/:id"]).route(for: .read) == nil)
    }
}
