import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that records the files it is asked to upload and, if told to, waits for
/// cancellation instead of answering.
private final class StagingTransport: HTTPTransport {
    let hangs: Bool
    private let state = Lock<(files: [URL], existed: [Bool])>(([], []))

    init(hangs: Bool = false) {
        self.hangs = hangs
    }

    var files: [URL] { state.withLock { $0.files } }
    var existedWhileSending: [Bool] { state.withLock { $0.existed } }

    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let url = request.url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil) else {
            throw URLError(.badServerResponse)
        }
        return (Data(#"{"id": 1}"#.utf8), response)
    }

    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> (Data, URLResponse) {
        state.withLock {
            $0.files.append(file)
            $0.existed.append(FileManager.default.fileExists(atPath: file.path))
        }
        if hangs {
            try await Task.sleep(for: .seconds(600))
        }
        progress(UploadProgress(bytesSent: 5, totalBytes: 10))
        progress(UploadProgress(bytesSent: 10, totalBytes: 10))
        return try await send(request)
    }
}

/// The temporary file a multipart body is written to lives exactly as long as its request.
struct UploadStagingTests {
    private func request(progress: (@Sendable (UploadProgress) -> Void)? = nil) -> SyncRequest {
        var request = SyncRequest(method: .create, url: URL(string: "/forms")!)
        request.requestBody = .multipart(MultipartForm([.field(name: "a", value: "b")]))
        request.onUploadProgress = progress
        return request
    }

    @Test func theTemporaryFileIsRemovedAfterTheUpload() async throws {
        let transport = StagingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        _ = try await api.perform(request())
        let file = try #require(transport.files.first)
        #expect(transport.existedWhileSending == [true])
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func cancellingTheTaskCancelsTheUploadAndRemovesTheFile() async throws {
        let transport = StagingTransport(hangs: true)
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let upload = Task { try await api.perform(request()) }
        while transport.files.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        upload.cancel()
        let result = await upload.result
        #expect(throws: SyncError.cancelled) { try result.get() }
        let file = try #require(transport.files.first)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aTimeoutRemovesTheFileToo() async throws {
        let transport = StagingTransport(hangs: true)
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        var timed = request()
        timed.timeout = .milliseconds(50)
        await #expect(throws: SyncError.timedOut) { _ = try await api.perform(timed) }
        let file = try #require(transport.files.first)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func progressReachesTheHandlerOfTheCall() async throws {
        let transport = StagingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let seen = Lock<[Double]>([])
        _ = try await api.perform(request { progress in seen.withLock { $0.append(progress.fractionCompleted) } })
        #expect(seen.withLock { $0 } == [0.5, 1])
    }

    @Test func aJSONBodyIsUploadedFromAFileWhenTheCallTracksProgress() async throws {
        let transport = StagingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        var json = SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["title": "Hi"])
        json.onUploadProgress = { _ in }
        _ = try await api.perform(json)
        #expect(transport.files.count == 1)
        _ = try await api.perform(SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["title": "Hi"]))
        #expect(transport.files.count == 1)
    }

    @Test func theDefaultUploadReportsTheWholeBodyOnceAnswered() async throws {
        let transport = RecordingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let seen = Lock<[UploadProgress]>([])
        _ = try await api.perform(request { progress in seen.withLock { $0.append(progress) } })
        let length = Int64(try #require(transport.lastRequest?.httpBody).count)
        #expect(seen.withLock { $0 } == [UploadProgress(bytesSent: length, totalBytes: length)])
    }
}
