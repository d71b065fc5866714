import Foundation
import Keel
import KeelTestServer
import Testing

/// Issue 26, item 2: a streamed body goes with its `Content-Length` and without chunked
/// transfer coding. Sending both is what RFC 9112 (6.2) forbids and gunicorn refuses with
/// 400, so every streamed upload failed against it.
///
/// The wire is read by a ``WireListener``, which records the headers exactly as sent;
/// `UploadServerTests` sends the same uploads to the Django test app under gunicorn.
struct RequestFramingTests {
    final class Attachment: Model {
        override class var urlRoot: String? { "/drf/attachments" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    /// Checks the framing of the one request `listener` received, as a strict HTTP/1.1
    /// parser does: one `Content-Length`, no `Transfer-Encoding`, and exactly that many bytes.
    private static func expectContentLengthFraming(of listener: WireListener) throws -> WireListener.Request {
        let request = try #require(listener.requests.first)
        let lengths = request.headers.filter { $0.name.lowercased() == "content-length" }
        #expect(request.headers.allSatisfy { $0.name.lowercased() != "transfer-encoding" }, "\(request.headers)")
        #expect(lengths.count == 1, "\(request.headers)")
        #expect(Int(lengths.first?.value ?? "") == request.body.count)
        return request
    }

    @Test func aFileUploadIsFramedByItsContentLengthAlone() async throws {
        let fixtures = try UploadFixtures()
        let file = try fixtures.file(named: "scan.pdf", size: 300_001)
        let listener = try WireListener { _ in .json(#"{"id": 1}"#, status: 201) }
        defer { listener.stop() }
        let attachment = Attachment(["title": "Scan"])
        attachment.sync = RESTSync(baseURL: listener.baseURL)

        try await attachment.save(files: ["file": .file(file)])

        let request = try Self.expectContentLengthFraming(of: listener)
        #expect(request.body.count > 300_001)
        #expect(String(decoding: request.body.suffix(8), as: UTF8.self).hasSuffix("--\r\n"))
        #expect(attachment.id == 1)
    }

    @Test func aJSONBodyWithUploadProgressIsFramedByItsContentLengthAlone() async throws {
        let listener = try WireListener { _ in .json(#"{"id": 2, "title": "Tracked"}"#, status: 201) }
        defer { listener.stop() }
        let note = Model(["title": "Tracked"])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: listener.baseURL)

        var options = SyncOptions()
        options.onUploadProgress = { _ in }
        try await note.save(options: options)

        let request = try Self.expectContentLengthFraming(of: listener)
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"title":"Tracked"}"#)
    }

    @Test func theDjangoTestServerRunsUnderGunicornAsDeployed() async throws {
        let server = try await TestServer.shared
        let response = try await RESTSync(baseURL: server.baseURL)
            .perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
        #expect(response.headers["server"] == "gunicorn")
    }
}
