import Foundation
import Keel
import Testing

/// Issue 27, item 5: an answer larger than `maximumResponseBytes` ends the request with
/// `SyncError.responseTooLarge`, its `Content-Length` checked before the body is read, an
/// endless body cut off once past the limit; the limit is set per backend and per call.
@MainActor
struct ResponseSizeLimitTests {
    /// A JSON array of `count` bytes: `[0,0,…,0]` padded with spaces.
    private static func jsonArray(bytes count: Int) -> String {
        let elements = Array(repeating: "0", count: max(1, (count - 2) / 2)).joined(separator: ",")
        let text = "[\(elements)]"
        return text + String(repeating: " ", count: max(0, count - text.utf8.count))
    }

    @Test func aContentLengthOverTheLimitEndsTheRequestBeforeTheBodyIsRead() async throws {
        // The head promises 10 GB and nothing follows: only the Content-Length can end it
        // before the 60-second timeout.
        let listener = try StreamingListener { writer in
            guard writer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n[")
            else { return }
            while writer.write(" ") { usleep(100_000) }
        }
        defer { listener.stop() }
        let api = RESTSync(baseURL: listener.baseURL, timeout: .seconds(20), maximumResponseBytes: 1024 * 1024)

        await #expect(throws: SyncError.responseTooLarge(limit: 1024 * 1024)) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/huge")!))
        }
    }

    @Test func anEndlessChunkedBodyIsCutOffOncePastTheLimit() async throws {
        let chunk = Array("100000\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 0x100000) + Array("\r\n".utf8)
        let listener = try StreamingListener { writer in
            guard writer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            else { return }
            // A megabyte every 5 ms: far more than the limit, without taking a core from the
            // tests running alongside.
            while writer.write(chunk) { usleep(5_000) }
        }
        defer { listener.stop() }
        let limit = 4 * 1024 * 1024
        // The stream never ends: only the limit can end the request before its 60 seconds.
        let api = RESTSync(baseURL: listener.baseURL, maximumResponseBytes: limit)

        await #expect(throws: SyncError.responseTooLarge(limit: limit)) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/endless")!))
        }
    }

    @Test func theLimitComesFromTheBackendOrTheCall() async throws {
        let body = Self.jsonArray(bytes: 8 * 1024)
        let listener = try StreamingListener { writer in
            _ = writer.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n\(body)"
            )
        }
        defer { listener.stop() }
        let api = RESTSync(baseURL: listener.baseURL, maximumResponseBytes: 4 * 1024)
        let collection = Collection<Model>(url: "/zeros", sync: api)

        await #expect(throws: SyncError.responseTooLarge(limit: 4 * 1024)) {
            _ = try await collection.fetch()
        }
        #expect(collection.isEmpty)
        var roomier = SyncRequest(method: .read, url: URL(string: "/zeros")!)
        roomier.maximumResponseBytes = 16 * 1024
        let response = try await api.perform(roomier)
        #expect(response.body?.arrayValue?.count == 4_095)
        await #expect(throws: SyncError.responseTooLarge(limit: 1024)) {
            _ = try await collection.fetch(options: SyncOptions(maximumResponseBytes: 1024))
        }
        let roomy = RESTSync(baseURL: listener.baseURL)
        #expect(roomy.maximumResponseBytes == RESTSync.defaultMaximumResponseBytes)
        #expect(try await roomy.perform(SyncRequest(method: .read, url: URL(string: "/zeros")!)).status == 200)
    }

    @Test func aTransportOfYourOwnIsHeldToTheLimitToo() async throws {
        let transport = RecordingTransport()
        transport.enqueue(.json(Self.jsonArray(bytes: 2048)))
        let api = RESTSync(baseURL: URL(string: "http://127.0.0.1:1")!, maximumResponseBytes: 1024, transport: transport)

        await #expect(throws: SyncError.responseTooLarge(limit: 1024)) {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/zeros")!))
        }
    }
}
