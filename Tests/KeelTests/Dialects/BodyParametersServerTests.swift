import Foundation
import Keel
import KeelTestServer
import Testing

/// Extra body parameters as a server receives them: JSON beside the record, and form fields
/// beside the files of a multipart save (the Django test server's echo endpoint answers with
/// what arrived).
@MainActor
struct BodyParametersServerTests {
    @Test func theServerReceivesTheParametersBesideTheRecord() async throws {
        let server = try await TestServer.shared
        let note = Model(["title": "A"])
        note.urlRoot = "/echo/notes"
        note.sync = RESTSync(baseURL: server.baseURL)
        var format = WireFormat.plain
        format.bodyParameters = ["client": "ios"]

        try await note.save(options: SyncOptions(wireFormat: format, bodyParameters: ["invite_code": "x"]))
        #expect(note["json"] == ["title": "A", "client": "ios", "invite_code": "x"])

        try await note.save(
            files: ["file": .data(Data("a".utf8), filename: "a.txt")],
            options: SyncOptions(wireFormat: format, bodyParameters: ["invite_code": "y"])
        )
        #expect(note["form"]?["invite_code"] == "y")
        #expect(note["form"]?["client"] == "ios")
        #expect(note["form"]?["title"] == "A")
    }
}
