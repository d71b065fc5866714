import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Multipart forms as RESTSync writes them (RFC 7578), and saves with files.
@MainActor
struct MultipartBodyTests {
    final class Profile: Model {
        override class var urlRoot: String? { "/profiles" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Attachment: Model {
        override class var urlRoot: String? { "/attachments" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    private func api(_ transport: RecordingTransport) -> RESTSync {
        RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
    }

    @Test func aRailsSaveWithAFileSendsBracketFieldsInsideTheRootAndTheFileBesideThem() async throws {
        let fixtures = try UploadFixtures()
        let avatar = try fixtures.file(named: "me.png", size: 70_000)
        let transport = RecordingTransport(.respond(.json(#"{"id": 1}"#, status: 201)))
        let profile = Profile(["displayName": "Ann", "tags": ["a", "b"], "address": ["city": "Oslo"]])
        profile.sync = api(transport)

        try await profile.save(files: ["avatar": .file(avatar)])

        let sent = try #require(transport.lastRequest)
        #expect(sent.httpMethod == "POST")
        let parts = try #require(sent.recordedParts)
        #expect(
            parts.map(\.name) == [
                "profile[display_name]", "profile[tags][]", "profile[tags][]", "profile[address][city]",
                "profile[avatar]",
            ]
        )
        #expect(parts.prefix(4).map(\.text) == ["Ann", "a", "b", "Oslo"])
        #expect(parts.prefix(4).allSatisfy { $0.contentType == nil && $0.filename == nil })
        let file = try #require(parts.last)
        #expect(file.filename == "me.png")
        #expect(file.contentType == "image/png")
        #expect(file.body == (try Data(contentsOf: avatar)))
        #expect(profile.id == 1)
    }

    @Test func aDjangoRESTSaveSendsPlainAndDottedFieldNames() async throws {
        let transport = RecordingTransport(.respond(.json(#"{"id": 4}"#, status: 201)))
        let attachment = Attachment(["title": "Scan", "address": ["city": "Oslo"], "file": "old.pdf"])
        attachment.sync = api(transport)

        try await attachment.save(files: ["file": .data(Data("%PDF".utf8), filename: "scan.pdf")])

        let parts = try #require(transport.lastRequest?.recordedParts)
        #expect(parts.map(\.name) == ["title", "address.city", "file"])
        #expect(parts.last?.contentType == "application/pdf")
        #expect(transport.lastRequest?.url?.absoluteString == "https://api.example.test/attachments/")
    }

    @Test func namesAndFileNamesAreEscapedAsBrowsersEscapeThem() async throws {
        let transport = RecordingTransport()
        var form = MultipartForm()
        form.append("say \"hi\"\r\n", "text")
        form.append("doc", file: .data(Data("x".utf8), filename: "résumé \"final\".txt"))
        form.append("blob", file: .data(Data([0, 1]), filename: "data"))
        form.append("custom", file: .data(Data(), filename: "a.png", mimeType: "image/x-custom"))
        var request = SyncRequest(method: .create, url: URL(string: "/forms")!)
        request.requestBody = .multipart(form)
        _ = try await api(transport).perform(request)

        let parts = try #require(transport.lastRequest?.recordedParts)
        #expect(parts[0].disposition == #"form-data; name="say %22hi%22%0D%0A""#)
        #expect(parts[1].disposition == #"form-data; name="doc"; filename="résumé %22final%22.txt""#)
        #expect(parts[1].contentType == "text/plain")
        #expect(parts[2].contentType == "application/octet-stream")
        #expect(parts[3].contentType == "image/x-custom")
        #expect(parts[3].body.isEmpty)
    }

    @Test func theBoundaryIsRandomAndAbsentFromTheParts() async throws {
        let transport = RecordingTransport()
        var boundaries: Set<String> = []
        for _ in 0..<3 {
            var request = SyncRequest(method: .create, url: URL(string: "/forms")!)
            request.requestBody = .multipart(MultipartForm([.field(name: "a", value: "----KeelFormBoundary")]))
            _ = try await api(transport).perform(request)
            let sent = try #require(transport.lastRequest)
            let boundary = try #require(sent.multipartBoundary)
            #expect(boundary.count >= 40)
            #expect(
                !sent.recordedBodyText.dropFirst(boundary.count + 2).dropLast(boundary.count + 6)
                    .contains("--\(boundary)\r\n--")
            )
            boundaries.insert(boundary)
        }
        #expect(boundaries.count == 3)
    }

    @Test func aMissingFileThrowsATypedErrorAndSendsNothing() async throws {
        let transport = RecordingTransport()
        let profile = Profile(["name": "Ann"])
        profile.sync = api(transport)
        let missing = URL(fileURLWithPath: "/nonexistent/keel/avatar.png")
        var failures: [SyncError] = []
        profile.on("error") { event in if let error = event.error as? SyncError { failures.append(error) } }

        await #expect(throws: SyncError.unreadableFile(missing, reason: "no such file")) {
            try await profile.save(files: ["avatar": .file(missing)])
        }
        #expect(transport.requests.isEmpty)
        #expect(failures.count == 1)
    }

    @Test func aDirectoryIsNotAFileToUpload() async throws {
        let fixtures = try UploadFixtures()
        let transport = RecordingTransport()
        var request = SyncRequest(method: .create, url: URL(string: "/forms")!)
        request.requestBody = .multipart(MultipartForm([.file(name: "f", .file(fixtures.directory))]))
        await #expect(throws: SyncError.unreadableFile(fixtures.directory, reason: "it is a directory")) {
            _ = try await api(transport).perform(request)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aPatchWithOnlyAFileIsSent() async throws {
        let transport = RecordingTransport(.respond(.json(#"{"id": 3, "name": "Ann"}"#)))
        let profile = Profile(["id": 3])
        profile.sync = api(transport)
        try await profile.fetch()
        #expect(profile.unsavedChanges == nil)
        try await profile.save(files: ["avatar": .data(Data("png".utf8), filename: "a.png")], patch: true)
        let sent = try #require(transport.lastRequest)
        #expect(sent.httpMethod == "PATCH")
        #expect(sent.recordedParts?.map(\.name) == ["profile[avatar]"])
    }

    @Test func backendsThatStoreRecordsKeepTheAttributesOfASaveWithFiles() async throws {
        let profile = Profile(["name": "Ann"])
        profile.sync = InMemorySync()
        try await profile.save(files: ["avatar": .data(Data("png".utf8), filename: "a.png")])
        #expect(profile["name"] == "Ann")
        #expect(!profile.isNew)
    }

    @Test func aCollectionCreatesAModelWithFilesFromItsOptions() async throws {
        let transport = RecordingTransport(.respond(.json(#"{"id": 9, "name": "Ann"}"#, status: 201)))
        let profiles = Collection<Profile>(url: "/profiles", sync: api(transport))
        var options = SyncOptions()
        options.files = ["avatar": .data(Data("png".utf8), filename: "a.png")]

        let created = try await profiles.create(["name": "Ann"], options: options)

        #expect(created.id == 9)
        #expect(transport.lastRequest?.recordedParts?.map(\.name) == ["profile[name]", "profile[avatar]"])
    }

    @Test func mimeTypesAreGuessedFromTheExtension() {
        #expect(FilePart.file(URL(fileURLWithPath: "/a/b.JPG")).mimeType == "image/jpeg")
        #expect(FilePart.data(Data(), filename: "x.csv").mimeType == "text/csv")
        #expect(FilePart.data(Data(), filename: "archive.tar.gz").mimeType == "application/gzip")
        #expect(FilePart.data(Data(), filename: ".png").mimeType == "application/octet-stream")
        #expect(FilePart.data(Data(), filename: "x.unknown").mimeType == "application/octet-stream")
        #expect(FilePart.file(URL(fileURLWithPath: "/a/b.png"), filename: "c.pdf").filename == "c.pdf")
    }
}
