import Foundation
import Keel
import Testing

/// The headers that reach the wire: a name that is not an RFC 9110 token, or a value with a
/// line break, a NUL or another control character, is refused with a typed error before
/// anything is sent, wherever the header comes from; the bytes a real listener reads show
/// that nothing was injected or dropped.
/// Values that cannot go in a header: a line break (alone or injecting a header), a NUL,
/// another C0 control character, DEL.
private let unsendableValues = ["abc\r\nX-Injected: 1", "abc\n", "abc\r", "abc\0", "abc\u{1}", "abc\u{7F}"]

@MainActor
struct HeaderValidationTests {
    private func listener() throws -> WireListener {
        try WireListener { _ in .json(#"{"id": 1}"#) }
    }

    private func invalidHeader(_ error: SyncError?) -> (name: String, reason: String)? {
        guard case .invalidHeader(let name, let reason) = error else { return nil }
        return (name, reason)
    }

    @Test func aHeaderNameWithALineBreakIsRefusedBeforeAnythingIsSent() async throws {
        let wire = try listener()
        defer { wire.stop() }
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: wire.baseURL)
        let error = await #expect(throws: SyncError.self) {
            try await note.fetch(options: SyncOptions(headers: ["X-User\r\nX-Injected": "1"]))
        }
        #expect(invalidHeader(error)?.name == "X-User\r\nX-Injected")
        #expect(wire.requests.isEmpty)
    }

    @Test(arguments: ["", "X User", "X:User", "Authorization\n", "X-Ünicode", "(X)"])
    func aNameThatIsNotATokenIsRefused(name: String) async throws {
        let wire = try listener()
        defer { wire.stop() }
        let api = RESTSync(baseURL: wire.baseURL)
        let request = SyncRequest(method: .read, url: URL(string: "/notes")!, headers: [name: "1"])
        let error = await #expect(throws: SyncError.self) { try await api.perform(request) }
        #expect(invalidHeader(error)?.name == name)
        #expect(wire.requests.isEmpty)
    }

    @Test(arguments: unsendableValues)
    func aDefaultHeaderValueWithAControlCharacterIsRefusedNotDropped(value: String) async throws {
        let wire = try listener()
        defer { wire.stop() }
        let api = RESTSync(baseURL: wire.baseURL, headers: ["Authorization": "Bearer " + value])
        let error = await #expect(throws: SyncError.self) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
        }
        let refused = try #require(invalidHeader(error))
        #expect(refused.name == "Authorization")
        #expect(!String(describing: try #require(error)).contains("abc"), "the value may be a credential")
        #expect(wire.requests.isEmpty)
    }

    @Test(arguments: unsendableValues)
    func aCallsHeaderValueWithAControlCharacterIsRefused(value: String) async throws {
        let wire = try listener()
        defer { wire.stop() }
        let notes = Collection<Model>(url: "/notes", sync: RESTSync(baseURL: wire.baseURL))
        let error = await #expect(throws: SyncError.self) {
            _ = try await notes.fetch(options: SyncOptions(headers: ["X-Token": value]))
        }
        #expect(invalidHeader(error)?.name == "X-Token")
        #expect(wire.requests.isEmpty)
    }

    @Test func aRefusedSaveLeavesTheModelAsItWas() async throws {
        let wire = try listener()
        defer { wire.stop() }
        let note = Model(["id": 1, "title": "Before"])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: wire.baseURL)
        await #expect(throws: SyncError.self) {
            try await note.save(["title": "After"], options: SyncOptions(headers: ["X-Token": "a\nb"]))
        }
        #expect(note["title"] == "Before")
        #expect(wire.requests.isEmpty)
    }

    @Test func tabsTokenCharactersAndNonASCIIValuesGoOutAsGiven() async throws {
        let wire = try listener()
        defer { wire.stop() }
        let api = RESTSync(baseURL: wire.baseURL, headers: ["X-Default": "one\ttwo"])
        let name = "X-Odd!#$%&'*+.^_`|~1"
        _ = try await api.perform(
            SyncRequest(method: .read, url: URL(string: "/notes")!, headers: [name: "Bearer abc.def-ghi"])
        )
        let head = String(decoding: try #require(wire.requests.first).head, as: UTF8.self)
        #expect(head.contains("\r\n\(name): Bearer abc.def-ghi\r\n"))
        #expect(head.contains("\r\nX-Default: one\ttwo\r\n"))
    }

    @Test func aTokenWithALineBreakIsRefusedNotKeptAndAskedForAgain() async throws {
        let wire = try listener()
        defer { wire.stop() }
        let calls = Lock(0)
        let api = TokenAuthSync(RESTSync(baseURL: wire.baseURL), baseURL: wire.baseURL) { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call == 1 ? "t1\r\nX-Injected: 1" : "t2"
        }
        let error = await #expect(throws: SyncError.self) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
        }
        #expect(invalidHeader(error)?.name == "Authorization")
        #expect(!String(describing: try #require(error)).contains("t1"), "the token is a credential")
        #expect(wire.requests.isEmpty)
        _ = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
        #expect(wire.requests.map { $0.header("Authorization") } == ["Bearer t2"])
        #expect(wire.requests.first?.header("X-Injected") == nil)
    }

    @Test func aSchemeThatIsNotATokenIsRefused() async throws {
        let wire = try listener()
        defer { wire.stop() }
        let rest = RESTSync(baseURL: wire.baseURL)
        let api = TokenAuthSync(rest, baseURL: wire.baseURL, scheme: "Bearer\r\nX-A:") { _ in "t" }
        let error = await #expect(throws: SyncError.self) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
        }
        #expect(invalidHeader(error)?.name == "Authorization")
        #expect(wire.requests.isEmpty)
    }

    @Test func aDrupalCSRFTokenWithALineBreakIsRefusedBeforeTheWrite() async throws {
        let wire = try WireListener { request in
            guard request.target.hasPrefix("/session/token") else { return .json("{}") }
            return WireListener.Reply(status: 200, headers: ["Content-Type": "text/plain"], body: "T1\r\nX-Injected: 1")
        }
        defer { wire.stop() }
        let drupal = DrupalSession(RESTSync(baseURL: wire.baseURL))
        let error = await #expect(throws: SyncError.self) {
            try await drupal.perform(SyncRequest(method: .delete, url: URL(string: "/node/4")!))
        }
        #expect(invalidHeader(error)?.name == "X-CSRF-Token")
        #expect(wire.requests.map(\.method) == ["GET"])
    }
}
