import Foundation
import Testing

@testable import Keel

/// A file's MIME type is written into its part's header, so only a media type
/// (`type/subtype; name=value`) is sent; anything else, a line break above all, is refused with
/// ``SyncError/invalidMIMEType(_:reason:)`` before a request is made.
/// The MIME type of the report: a part header and new content after a line break.
private let injectedType = "text/plain\r\nX-Injected: 1\r\n\r\nSMUGGLED"

@MainActor
struct MIMETypeValidationTests {
    @Test(arguments: [
        "text/plain", "image/svg+xml", "application/vnd.api+json", "application/octet-stream",
        "text/plain; charset=utf-8", "text/plain;charset=\"utf-8\"", "multipart/mixed; boundary=\"a b\\\"c\"",
        "text/plain ; charset=utf-8 ;", "application/x-www-form-urlencoded", "video/x-ms-wmv",
    ])
    func mediaTypesAreAccepted(type: String) {
        #expect(MIMEType.problem(in: type) == nil)
    }

    @Test(arguments: [
        "", "text", "text/", "/plain", "text /plain", "text/ plain", "text/pl@in", "téxt/plain", injectedType,
        "text/plain\n", "text/plain; charset", "text/plain; charset=", "text/plain; =utf-8",
        "text/plain; charset=\"utf-8", "text/plain; charset=\"a\rb\"", "text/plain, text/html",
    ])
    func otherTextIsRefusedWithAReason(type: String) {
        #expect(MIMEType.problem(in: type) != nil)
    }

    @Test func aSaveWithAnInjectedMIMETypeSendsNothing() async throws {
        let wire = try WireListener { _ in .json(#"{"id": 1}"#) }
        defer { wire.stop() }
        let user = Model(["name": "Ann"])
        user.urlRoot = "/users"
        user.sync = RESTSync(baseURL: wire.baseURL)
        let file = FilePart.data(Data("content".utf8), filename: "a.txt", mimeType: injectedType)
        let reason = try #require(MIMEType.problem(in: injectedType))
        await #expect(throws: SyncError.invalidMIMEType(injectedType, reason: reason)) {
            try await user.save(files: ["avatar": file])
        }
        #expect(wire.requests.isEmpty)
        #expect(user.isNew)
    }

    @Test func aMultipartBodyWithAnInjectedMIMETypeSendsNothing() async throws {
        let wire = try WireListener { _ in .json(#"{"id": 1}"#) }
        defer { wire.stop() }
        var request = SyncRequest(method: .create, url: URL(string: "/photos")!)
        request.requestBody = .multipart(
            MultipartForm([.file(name: "photo", .data(Data("x".utf8), filename: "a.txt", mimeType: injectedType))])
        )
        let error = await #expect(throws: SyncError.self) {
            try await RESTSync(baseURL: wire.baseURL).perform(request)
        }
        guard case .invalidMIMEType(let type, _) = error else {
            Issue.record("expected invalidMIMEType, got \(String(describing: error))")
            return
        }
        #expect(type == injectedType)
        #expect(wire.requests.isEmpty)
    }

    @Test func aValidMIMETypeWithParametersIsSentAsGiven() async throws {
        let wire = try WireListener { _ in .json(#"{"id": 1}"#) }
        defer { wire.stop() }
        var request = SyncRequest(method: .create, url: URL(string: "/photos")!)
        let type = "text/plain; charset=\"utf-8\""
        request.requestBody = .multipart(
            MultipartForm([.file(name: "photo", .data(Data("x".utf8), filename: "a.txt", mimeType: type))])
        )
        _ = try await RESTSync(baseURL: wire.baseURL).perform(request)
        let body = String(decoding: try #require(wire.requests.first).body, as: UTF8.self)
        #expect(body.contains("\r\nContent-Type: \(type)\r\n\r\nx\r\n"))
    }
}
