import Foundation
import Keel
import KeelTestServer
import Testing

/// An attribute with the ``AttributeRole/file`` role goes only as a file part, never as a JSON
/// value or a form field, and holds what the server answers (DRF: the file's URL), so a full
/// save after an upload keeps the file on a stock DRF `FileField` (`/library/documents/`).
@MainActor
struct FileRoleTests {
    final class Document: Model {
        override class var urlRoot: String? { "/library/documents" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.djangoREST
            format.roles["file"] = .file
            return format
        }
    }

    @Test func aFullSaveAfterAnUploadKeepsTheFile() async throws {
        let server = try await TestServer.shared
        let document = Document(["title": "Report"])
        document.sync = RESTSync(baseURL: server.baseURL)
        try await document.save(files: ["file": .data(Data("a,b\n".utf8), filename: "report.csv")])
        let stored = try #require(document["file"]?.stringValue)
        #expect(stored.hasPrefix(server.baseURL.absoluteString + "media/documents/report"))

        try await document.save(["title": "Final report"])
        #expect(document["title"] == "Final report")
        #expect(document["file"]?.stringValue == stored)
        #expect(document.unsavedChanges == nil)

        try await document.save(files: ["file": .data(Data("c,d\n".utf8), filename: "second.csv")])
        #expect(document["file"]?.stringValue?.contains("media/documents/second") == true)
        #expect(document["title"] == "Final report")
    }

    @Test func aFileIsNeitherAJSONValueNorAFormField() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 200, body: ["id": 1, "file": "http://x/f.csv"]) }
        let document = Document(["id": 1, "title": "Report", "file": "http://x/f.csv"])
        document.sync = backend
        try await document.save()
        try await document.save(["title": "Two"], patch: true)
        try await document.save(files: ["file": .data(Data("a".utf8), filename: "f.csv")])
        #expect(backend.requests[0].body == ["title": "Report"])
        #expect(backend.requests[1].body == ["title": "Two"])
        guard case .multipart(let form) = backend.requests[2].requestBody else {
            Issue.record("\(String(describing: backend.requests[2].requestBody))")
            return
        }
        #expect(form.parts.map(\.name) == ["title", "file"])
        guard case .file = form.parts.last else {
            Issue.record("the file is not a file part: \(form.parts)")
            return
        }
        #expect(document["file"] == "http://x/f.csv")
    }
}
