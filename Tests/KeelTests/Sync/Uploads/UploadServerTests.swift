import Foundation
import Keel
import KeelTestServer
import Testing

/// Uploads to the test servers' endpoints, written as their users write them.
///
/// A DRF `ModelViewSet`
/// with a `FileField` (`/drf/attachments/`) and a Rails controller reading an
/// `UploadedFile` through strong parameters (`/profiles`). Both answer with the size and
/// SHA-256 of what they received.
@MainActor
struct UploadServerTests {
    final class Attachment: Model {
        override class var urlRoot: String? { "/drf/attachments" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    final class Profile: Model {
        override class var urlRoot: String? { "/profiles" }
        override class var wireFormat: WireFormat { .rails }
    }

    // MARK: - Django REST framework

    @Test func aDjangoRESTModelSavesWithAFileStreamedFromDisk() async throws {
        let fixtures = try UploadFixtures()
        let file = try fixtures.file(named: "scan.pdf", size: 3_000_001)
        let server = try await TestServer.shared
        let attachment = Attachment([
            "title": "Scan", "tags": ["tax", "2026"], "address": ["city": "Oslo", "zip": "0150"],
        ])
        attachment.sync = RESTSync(baseURL: server.baseURL)

        try await attachment.save(files: ["file": .file(file)])

        #expect(attachment["size"] == 3_000_001)
        #expect(attachment["sha256"] == .string(try UploadFixtures.sha256(of: file)))
        #expect(attachment["originalFilename"] == "scan.pdf")
        #expect(attachment["contentType"] == "application/pdf")
        #expect(attachment["title"] == "Scan")
        #expect(attachment["tags"] == ["tax", "2026"])
        #expect(attachment["address"] == ["city": "Oslo", "zip": "0150"])
    }

    @Test func aDjangoRESTModelReplacesItsFileWithAPatch() async throws {
        let server = try await TestServer.shared
        let attachment = Attachment(["title": "Notes"])
        attachment.sync = RESTSync(baseURL: server.baseURL)
        try await attachment.save(files: ["file": .data(Data("first".utf8), filename: "a.txt")])
        let replacement = Data("second version".utf8)

        try await attachment.save(
            files: ["file": .data(replacement, filename: "Überblick.md", mimeType: "text/markdown")],
            patch: true
        )

        #expect(attachment["size"] == .int(replacement.count))
        #expect(attachment["originalFilename"] == "Überblick.md")
        #expect(attachment["contentType"] == "text/markdown")
        #expect(attachment["title"] == "Notes")
    }

    @Test func progressRisesToTheWholeBodyAgainstARealServer() async throws {
        let fixtures = try UploadFixtures()
        let file = try fixtures.file(named: "video.mp4", size: 4_000_000, seed: 7)
        let server = try await TestServer.shared
        let attachment = Attachment(["title": "Video"])
        attachment.sync = RESTSync(baseURL: server.baseURL)
        let (events, continuation) = AsyncStream.makeStream(of: UploadProgress.self)
        var options = SyncOptions()
        options.onUploadProgress = { continuation.yield($0) }

        try await attachment.save(files: ["file": .file(file)], options: options)
        continuation.finish()

        var seen: [UploadProgress] = []
        for await progress in events { seen.append(progress) }
        let last = try #require(seen.last)
        #expect(seen.count > 1)
        #expect(last.bytesSent == last.totalBytes)
        #expect(last.totalBytes > 4_000_000 && last.totalBytes < 4_001_000)  // the file and the envelope
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytesSent <= $1.bytesSent })
        #expect(Set(seen.map(\.totalBytes)).count == 1)
        #expect(attachment["size"] == 4_000_000)
    }

    @Test func cancellingTheTaskStopsAnUploadInFlight() async throws {
        let fixtures = try UploadFixtures()
        let file = try fixtures.file(named: "large.bin", size: 40_000_000, seed: 9)
        let server = try await TestServer.shared
        let (started, sending) = AsyncStream.makeStream(of: UploadProgress.self)
        // A view that sleeps before it reads the body, so the upload stalls mid-body and the
        // cancellation cannot lose the race against a fast loopback upload.
        var options = SyncOptions(url: "/slow?seconds=10")
        options.onUploadProgress = { sending.yield($0) }
        let attachment = Attachment(["title": "Cancelled"])
        attachment.sync = RESTSync(baseURL: server.baseURL)
        let upload = Task { try await attachment.save(files: ["file": .file(file)], options: options) }

        var first: UploadProgress?
        for await progress in started {
            first = progress
            break
        }
        upload.cancel()

        let result = await upload.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        #expect(try #require(first).bytesSent < 40_000_000)
        #expect(attachment.isNew)
    }

    @Test func aFormURLEncodedBodyCreatesADjangoRESTRecord() async throws {
        let server = try await TestServer.shared
        var request = SyncRequest(method: .create, url: URL(string: "/drf/articles/")!)
        request.requestBody = .formURLEncoded([("title", "Fish & Chips + ü"), ("body", "a=b")])
        let response = try await RESTSync(baseURL: server.baseURL).perform(request)
        #expect(response.status == 201)
        #expect(response.body?["title"] == "Fish & Chips + ü")
        #expect(response.body?["body"] == "a=b")
    }

    // MARK: - Rails

    @Test func aRailsModelSavesWithAnAvatarThroughStrongParameters() async throws {
        let fixtures = try UploadFixtures()
        let avatar = try fixtures.file(named: "portrait ü.png", size: 1_234_567, seed: 3)
        let server = try await RailsTestServer.shared
        let profile = Profile(["name": "Ann", "tags": ["a", "b"], "address": ["city": "Oslo"]])
        profile.sync = RESTSync(baseURL: server.baseURL)

        try await profile.save(files: ["avatar": .file(avatar, mimeType: "image/png")])

        #expect(profile.id != nil)
        #expect(profile["name"] == "Ann")
        #expect(profile["tags"] == ["a", "b"])
        #expect(profile["address"] == ["city": "Oslo"])
        #expect(profile["avatar"]?["byteSize"] == 1_234_567)
        #expect(profile["avatar"]?["sha256"] == .string(try UploadFixtures.sha256(of: avatar)))
        #expect(profile["avatar"]?["filename"] == "portrait ü.png")
        #expect(profile["avatar"]?["contentType"] == "image/png")
    }

    @Test func aRailsUpdateSendsTheFileWithPatchAndQuotedNamesSurvive() async throws {
        let server = try await RailsTestServer.shared
        let profile = Profile(["name": "Bo"])
        profile.sync = RESTSync(baseURL: server.baseURL)
        try await profile.save()
        let data = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })

        let response = try await profile.save(files: ["avatar": .data(data, filename: #"say "cheese".jpg"#)])

        #expect(response.status == 200)
        #expect(profile["avatar"]?["byteSize"] == 5000)
        #expect(profile["avatar"]?["filename"] == #"say "cheese".jpg"#)  // Rack decodes %22
        #expect(profile["avatar"]?["contentType"] == "image/jpeg")
        #expect(profile["name"] == "Bo")
    }

    /// Rack keeps a multipart upload in a tempfile that Rails 6.1 leaves to Ruby's finalizers;
    /// the test server keeps those in its own directory, so test runs leave none behind.
    @Test func aRailsUploadLeavesNoTempfileInTheMachinesTemporaryDirectory() async throws {
        let server = try await RailsTestServer.shared
        let temporary = FileManager.default.temporaryDirectory
        func rackTempfiles() throws -> Set<String> {
            Set(
                try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
                    $0.hasPrefix("RackMultipart")
                }
            )
        }
        let before = try rackTempfiles()
        let profile = Profile(["name": "Eve"])
        profile.sync = RESTSync(baseURL: server.baseURL)

        try await profile.save(files: ["avatar": .data(Data(repeating: 7, count: 20_000), filename: "eve.png")])

        #expect(profile["avatar"]?["byteSize"] == 20_000)
        #expect(try rackTempfiles().subtracting(before).isEmpty)
    }

    @Test func aRailsFormURLEncodedBodyIsReadAsParams() async throws {
        let server = try await RailsTestServer.shared
        var request = SyncRequest(method: .create, url: URL(string: "/profiles")!)
        request.requestBody = .formURLEncoded(
            FormNotation.brackets.fields(for: ["profile": ["name": "Cy & Di", "tags": ["x y"]]])
        )
        let response = try await RESTSync(baseURL: server.baseURL).perform(request)
        #expect(response.status == 201)
        #expect(response.body?["name"] == "Cy & Di")
        #expect(response.body?["tags"] == ["x y"])
    }
}
