import Foundation
import Keel
import Testing

/// Response mappings chosen by route and status code (RestKit's response descriptors), and
/// registered and removed at run time. Every test has its own classes: the tables are
/// per class and the tests run in parallel.
@MainActor
struct ResponseMappingTests {
    final class RouteUser: Model {
        override class var urlRoot: String? { "/users" }
    }

    final class StatusNote: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class UnmappedNote: Model {
        override class var urlRoot: String? { "/notes" }
    }

    final class JobReport: Model {
        override class var urlRoot: String? { "/reports" }
    }

    final class RuntimeUser: Model {
        override class var urlRoot: String? { "/users" }
    }

    final class LegacyNote: Model {
        override class var urlRoot: String? { "/notes" }
    }

    final class BasedUser: Model {
        override class var urlRoot: String? { "/users" }
    }

    final class ConcurrentUser: Model {}

    @Test func aRoutesListIsReadAtItsKeyPathAndAnotherRoutesAsItIs() async throws {
        RouteUser.responseMappings.register(ResponseMapping(route: "/users/:user_id/followers", keyPath: "data.users"))
        let backend = ScriptedSync { request in
            request.url.path() == "/users/3/followers"
                ? SyncResponse(body: ["data": ["users": [["id": 1], ["id": 2]]], "meta": ["total": 2]])
                : SyncResponse(body: [["id": 5]])
        }
        let followers = Collection<RouteUser>(url: "/users/3/followers", sync: backend)
        try await followers.fetch()
        #expect(followers.map(\.id) == [1, 2])
        let everyone = Collection<RouteUser>(url: "/users", sync: backend)
        try await everyone.fetch()
        #expect(everyone.map(\.id) == [5])
    }

    @Test func aRoutesRecordIsReadAtItsKeyPath() async throws {
        RouteUser.responseMappings.register(ResponseMapping(route: "/users/:id/profile", keyPath: "data"))
        let user = RouteUser(["id": 4])
        user.sync = ScriptedSync { _ in SyncResponse(body: ["data": ["id": 4, "name": "Ann"]]) }
        try await user.fetch(options: SyncOptions(url: "/users/4/profile"))
        #expect(user["name"] == "Ann")
        #expect(user["data"] == nil)
    }

    @Test func aStatusCodesErrorsAreReadAtItsKeyPathIntoTheValidationError() async throws {
        StatusNote.responseMappings.register(ResponseMapping(statusCodes: 409...409, keyPath: "conflict.fields"))
        StatusNote.responseMappings.register(ResponseMapping(statusCodes: 422...422, keyPath: "result.errors"))
        let note = StatusNote(["id": 1, "dueAt": "x"])
        note.sync = ScriptedSync(
            failing: SyncError(failing: SyncResponse(status: 409, body: ["conflict": ["fields": ["due_at": ["was changed"]]]]))
        )
        do {
            try await note.save()
            Issue.record("the save succeeded")
        } catch {
            #expect(error == .validationFailed(["dueAt": ["was changed"]], status: 409))
        }
        #expect(note.validationError?["dueAt"] == ["was changed"])

        note.sync = ScriptedSync(
            failing: SyncError(
                failing: SyncResponse(status: 422, body: ["result": ["errors": ["due_at": ["is past"], "base": ["Locked"]]]])
            )
        )
        do {
            try await note.save()
            Issue.record("the save succeeded")
        } catch {
            #expect(error.validationError?["dueAt"] == ["is past"])
            #expect(error.validationError?.messages == ["Locked"])
        }
    }

    @Test func aStatusWithoutAMappingFailsAsBefore() async throws {
        UnmappedNote.responseMappings.register(ResponseMapping(route: "/elsewhere", statusCodes: 409...409, keyPath: "x"))
        let note = UnmappedNote(["id": 2])
        note.sync = ScriptedSync(failing: SyncError(failing: SyncResponse(status: 409, body: ["x": ["title": ["no"]]])))
        await #expect(throws: SyncError.httpStatus(409, body: ["x": ["title": ["no"]]])) { try await note.save() }
    }

    @Test func anAcceptedJobLeavesTheModelAsItWas() async throws {
        JobReport.responseMappings.register(ResponseMapping(route: "/reports", statusCodes: 202...202, reading: .nothing))
        let report = JobReport(["title": "Q3"])
        report.sync = ScriptedSync { _ in SyncResponse(status: 202, body: ["job": ["id": 99, "state": "queued"]]) }
        let response = try await report.save()
        #expect(report.attributes == ["title": "Q3"])
        #expect(response.body?["job"]?["id"] == 99)
        #expect(report.isNew)
    }

    @Test func mappingsRegisteredAndRemovedAtRunTimeTakeEffectOnTheNextCall() async throws {
        let envelope = ResponseMapping(route: "/users/:id", keyPath: "user")
        let user = RuntimeUser(["id": 1])
        user.sync = ScriptedSync { _ in SyncResponse(body: ["user": ["id": 1, "name": "Ann"]]) }
        try await user.fetch()
        #expect(user["user"] != nil)
        #expect(user["name"] == nil)

        RuntimeUser.responseMappings.register(envelope)
        #expect(RuntimeUser.responseMappings.all == [envelope])
        let fresh = RuntimeUser(["id": 1])
        fresh.sync = user.sync
        try await fresh.fetch()
        #expect(fresh["name"] == "Ann")

        #expect(RuntimeUser.responseMappings.remove(envelope))
        #expect(!RuntimeUser.responseMappings.remove(envelope))
        let again = RuntimeUser(["id": 1])
        again.sync = user.sync
        try await again.fetch()
        #expect(again["name"] == nil)
        #expect(RouteUser.responseMappings.all.allSatisfy { $0 != envelope })
    }

    @Test func aMappingCanReadWithAnotherWireFormat() async throws {
        LegacyNote.responseMappings.register(ResponseMapping(route: "/v1/notes/:id", format: .rails))
        let note = LegacyNote(["id": 3])
        note.sync = ScriptedSync { _ in SyncResponse(body: ["legacy_note": ["id": 3, "due_at": "2026-11-28T00:00:00Z"]]) }
        try await note.fetch(options: SyncOptions(url: "/v1/notes/3"))
        #expect(note["dueAt"] == "2026-11-28T00:00:00Z")
        #expect(note["legacyNote"] == nil)
    }

    @Test func routesAreMatchedBelowTheBaseURLsPathAndGiveTheirParameters() async throws {
        BasedUser.responseMappings.register(ResponseMapping(route: "/users/:id", keyPath: "data"))
        let user = BasedUser(["id": 8])
        user.baseURL = URL(string: "https://api.example.test/v2")
        user.sync = ScriptedSync { _ in SyncResponse(body: ["data": ["id": 8, "name": "Bo"]]) }
        var parameters: [String: String]?
        user.on("change:name") { event in parameters = event.options.responseContext?.routeParameters }
        try await user.fetch()
        #expect(user["name"] == "Bo")
        #expect(parameters == ["id": "8"])
    }

    @Test func registeringFromManyTasksAtOnceKeepsEveryMapping() async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { ConcurrentUser.responseMappings.register(ResponseMapping(keyPath: "k\(index)")) }
            }
        }
        #expect(ConcurrentUser.responseMappings.all.count == 100)
        ConcurrentUser.responseMappings.removeAll()
        #expect(ConcurrentUser.responseMappings.all.isEmpty)
    }
}
