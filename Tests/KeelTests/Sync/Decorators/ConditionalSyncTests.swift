import Foundation
import Keel
import Testing

struct ConditionalSyncTests {
    private static let tagged = SyncResponse(
        headers: ["ETag": "\"v1\"", "Last-Modified": "Mon, 23 Nov 2026 10:00:00 GMT"],
        body: ["id": 1, "title": "Hi"]
    )
    private static let notModified = SequenceSync.Step.failing(SyncResponse(status: 304))

    @Test func aReadSendsTheValidatorsOfTheLastAnswerBack() async throws {
        let base = SequenceSync([.respond(Self.tagged), Self.notModified])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        #expect(base.requests[0].headers.isEmpty)
        #expect(base.requests[1].headers["If-None-Match"] == "\"v1\"")
        #expect(base.requests[1].headers["If-Modified-Since"] == "Mon, 23 Nov 2026 10:00:00 GMT")
    }

    @Test func aNotModifiedAnswerGivesTheRememberedResponse() async throws {
        let base = SequenceSync([.respond(Self.tagged), Self.notModified])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        let second = try await api.perform(DecoratorFixture.read("/notes/1"))
        #expect(second == Self.tagged)
    }

    @Test func aNotModifiedAnswerWithoutARememberedResponseStaysAnError() async throws {
        let base = SequenceSync([Self.notModified])
        await #expect(throws: SyncError.httpStatus(304, body: nil)) {
            try await ConditionalSync(base).perform(DecoratorFixture.read("/notes/1"))
        }
    }

    @Test func aModelFetchAnsweredNotModifiedKeepsItsAttributesAndFiresSync() async throws {
        let base = SequenceSync([.respond(Self.tagged), Self.notModified])
        let note = Model(["id": 1])
        note.sync = ConditionalSync(base)
        note.urlRoot = "/notes"
        try await note.fetch()
        let log = SyncEventLog()
        log.watch(note)
        try await note.fetch()
        #expect(note["title"] == "Hi")
        #expect(log.entries == ["request", "sync"])
    }

    @Test func theQueryIsPartOfWhatIsRemembered() async throws {
        let base = SequenceSync([.respond(Self.tagged)])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes", query: [URLQueryItem(name: "page", value: "1")]))
        _ = try await api.perform(DecoratorFixture.read("/notes", query: [URLQueryItem(name: "page", value: "2")]))
        #expect(base.requests[1].headers.isEmpty)
        #expect(api.count == 2)
    }

    @Test func responsesWithoutValidatorsAreNotRemembered() async throws {
        let base = SequenceSync([.respond(SyncResponse(body: ["id": 1]))])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        #expect(base.requests[1].headers.isEmpty)
        #expect(api.count == 0)
    }

    @Test func aCallThatSetsItsOwnValidatorsIsLeftAlone() async throws {
        let base = SequenceSync([.respond(Self.tagged), Self.notModified])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        await #expect(throws: SyncError.httpStatus(304, body: nil)) {
            try await api.perform(DecoratorFixture.read("/notes/1", headers: ["if-none-match": "\"v0\""]))
        }
        #expect(base.requests[1].headers == ["if-none-match": "\"v0\""])
    }

    @Test(arguments: [SyncMethod.update, .patch, .delete])
    func aWriteForgetsTheURL(method: SyncMethod) async throws {
        let base = SequenceSync([.respond(Self.tagged), .respond(SyncResponse(status: 200)), .respond(Self.tagged)])
        let api = ConditionalSync(base)
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        _ = try await api.perform(DecoratorFixture.request(method, "/notes/1"))
        _ = try await api.perform(DecoratorFixture.read("/notes/1"))
        #expect(base.requests[2].headers.isEmpty)
    }

    @Test func theLeastRecentlyUsedResponseIsForgottenFirst() async throws {
        let base = SequenceSync([.respond(Self.tagged)])
        let api = ConditionalSync(base, capacity: 2)
        _ = try await api.perform(DecoratorFixture.read("/a"))
        _ = try await api.perform(DecoratorFixture.read("/b"))
        _ = try await api.perform(DecoratorFixture.read("/a"))
        _ = try await api.perform(DecoratorFixture.read("/c"))
        #expect(api.count == 2)
        _ = try await api.perform(DecoratorFixture.read("/a"))
        _ = try await api.perform(DecoratorFixture.read("/b"))
        #expect(base.requests[4].headers["If-None-Match"] == "\"v1\"", "/a was used recently")
        #expect(base.requests[5].headers.isEmpty, "/b was forgotten")
    }

    @Test func removeAllForgetsEverything() async throws {
        let api = ConditionalSync(SequenceSync([.respond(Self.tagged)]))
        _ = try await api.perform(DecoratorFixture.read("/a"))
        api.removeAll()
        #expect(api.count == 0)
    }
}
