import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - RESTSync reads and writes bodies with its codecs

struct RESTSyncCodecTests {
    private func api(_ transport: RecordingTransport, register codec: (any BodyCodec)? = nil) -> RESTSync {
        var api = RESTSync(baseURL: SyncFixture.base, transport: transport)
        if let codec { api.codecs.register(codec) }
        return api
    }

    @Test func acceptListsTheRegisteredCodecs() async throws {
        let transport = RecordingTransport()
        _ = try await api(transport, register: ReversedJSONCodec())
            .perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/1")))
        #expect(
            transport.lastRequest?.recordedHeader("Accept")
                == "application/x-test, application/json, application/x-www-form-urlencoded, text/plain"
        )
    }

    @Test func aFormAnswerIsDecoded() async throws {
        let transport = RecordingTransport(
            .respond(.text("id=7&title=Oat+milk&tags=a&tags=b", status: 200, contentType: "application/x-www-form-urlencoded"))
        )
        let response = try await api(transport).perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/7")))
        #expect(response.body == ["id": "7", "title": "Oat milk", "tags": ["a", "b"]])
    }

    @Test func aRegisteredCodecDecodesItsType() async throws {
        let transport = RecordingTransport(
            .respond(.text(String(#"{"id":1}"#.reversed()), status: 200, contentType: "application/vnd.acme+test"))
        )
        let response = try await api(transport, register: ReversedJSONCodec())
            .perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/1")))
        #expect(response.body == ["id": 1])
    }

    @Test func aSuccessInATypeNoCodecReadsKeepsItsText() async {
        let transport = RecordingTransport(.respond(.text("<note id='1'/>", status: 200, contentType: "application/xml")))
        await #expect {
            try await api(transport).perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/1")))
        } throws: { error in
            guard case SyncError.undecodableBody(200, let reason, let text) = error else { return false }
            return text == "<note id='1'/>" && reason.contains("application/xml") && reason.contains("text/plain")
        }
    }

    @Test func aFailureInAnUnreadTypeKeepsItsText() async {
        let transport = RecordingTransport(.respond(.text("<error>gone</error>", status: 410, contentType: "application/xml")))
        await #expect(throws: SyncError.httpStatus(410, body: "<error>gone</error>")) {
            try await api(transport).perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/1")))
        }
    }

    @Test func aCodecThatFailsOnASuccessIsUndecodable() async {
        let transport = RecordingTransport(.respond(.text("a[b=1", status: 200, contentType: "application/x-www-form-urlencoded")))
        await #expect {
            try await api(transport).perform(SyncRequest(method: .read, url: SyncFixture.url("/notes/1")))
        } throws: { error in
            guard case SyncError.undecodableBody(200, let reason, "a[b=1") = error else { return false }
            return reason.contains("unclosed [") && reason.contains("application/x-www-form-urlencoded")
        }
    }

    @Test func anEncodedBodyIsWrittenByItsCodec() async throws {
        let transport = RecordingTransport()
        var request = SyncRequest(method: .create, url: SyncFixture.url("/notes"))
        request.requestBody = .encoded(["title": "Milk"], mediaType: "application/x-test")
        _ = try await api(transport, register: ReversedJSONCodec()).perform(request)
        let sent = try #require(transport.lastRequest)
        #expect(sent.recordedHeader("Content-Type") == "application/x-test")
        #expect(sent.httpBody.map { String(decoding: $0, as: UTF8.self) } == String(#"{"title":"Milk"}"#.reversed()))
    }

    @Test func anEncodedBodyWithoutACodecIsNotSent() async {
        let transport = RecordingTransport()
        var request = SyncRequest(method: .create, url: SyncFixture.url("/notes"))
        request.requestBody = .encoded(["title": "Milk"], mediaType: "application/msgpack")
        await #expect(throws: SyncError.unwritableBody(mediaType: "application/msgpack", reason: "no registered codec writes it")) {
            try await api(transport).perform(request)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func anEncodedBodysMediaTypeMustBeAMediaType() async {
        let transport = RecordingTransport()
        var request = SyncRequest(method: .create, url: SyncFixture.url("/notes"))
        request.requestBody = .encoded(["title": "Milk"], mediaType: "application/x-test\r\nX-Injected: 1")
        await #expect {
            try await api(transport, register: ReversedJSONCodec()).perform(request)
        } throws: { error in
            guard case SyncError.invalidMIMEType("application/x-test\r\nX-Injected: 1", _) = error else { return false }
            return true
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aCodecThatCannotWriteTheValueSendsNothing() async {
        let transport = RecordingTransport()
        var request = SyncRequest(method: .create, url: SyncFixture.url("/notes"))
        request.requestBody = .encoded(["a", "b"], mediaType: "application/x-test")
        await #expect(throws: SyncError.unwritableBody(mediaType: "application/x-test", reason: "only objects")) {
            try await api(transport, register: ReversedJSONCodec()).perform(request)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aWireFormatSendsItsBodiesThroughTheCodec() async throws {
        final class TestNote: Model {
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat {
                var format = WireFormat.plain
                format.bodyEncoding = .mediaType("application/x-test")
                return format
            }
        }
        let transport = RecordingTransport(.respond(.text(String(#"{"id":3,"title":"Milk"}"#.reversed()), status: 201, contentType: "application/x-test")))
        let note = TestNote(["title": "Milk"])
        note.sync = api(transport, register: ReversedJSONCodec())
        try await note.save()
        #expect(note.id == 3)
        #expect(transport.lastRequest?.recordedHeader("Content-Type") == "application/x-test")
    }
}
