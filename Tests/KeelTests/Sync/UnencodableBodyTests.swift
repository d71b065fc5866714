import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Attributes nested one level deeper than JSON text may be: `{"a":{"a":…1…}}`.
private let tooDeepToWrite: JSONValue = {
    var value: JSONValue = 1
    for _ in 0...JSONValue.maximumParsingDepth { value = ["a": value] }
    return value
}()

/// A body that cannot be written as JSON fails with a typed error, and nothing is sent.
@MainActor
struct UnencodableBodyTests {
    @Test(arguments: [false, true])
    func aBodyNestedTooDeepToWriteIsAnUnencodableBodyError(emulateJSON: Bool) {
        let api = RESTSync(baseURL: SyncFixture.base, emulateJSON: emulateJSON, transport: RecordingTransport())
        let request = SyncRequest(method: .create, url: SyncFixture.url("/notes"), body: tooDeepToWrite)
        #expect(throws: SyncError.unencodableBody(JSONWriteError(kind: .tooDeeplyNested))) {
            try api.urlRequest(for: request)
        }
    }

    @Test func savingAttributesNestedTooDeepFailsWithoutSendingAnything() async throws {
        let transport = RecordingTransport()
        let note = Model(["title": "Deep", "tree": tooDeepToWrite])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        let log = SyncEventLog()
        log.watch(note, events: "error")
        await #expect(throws: SyncError.unencodableBody(JSONWriteError(kind: .tooDeeplyNested))) {
            try await note.save()
        }
        #expect(transport.requests.isEmpty)
        #expect(note.isNew)
        #expect(log.events.map(\.syncError) == [.unencodableBody(JSONWriteError(kind: .tooDeeplyNested))])
    }

    @Test func theErrorSaysTheBodyCannotBeSent() {
        #expect(
            SyncError.unencodableBody(JSONWriteError(kind: .tooDeeplyNested)).description
                == "The request body cannot be sent: Arrays and objects nested deeper than 512 levels "
                + "cannot be written as JSON"
        )
    }
}
