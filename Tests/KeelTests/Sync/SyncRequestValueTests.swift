import Foundation
import Keel
import Testing

/// A request is a value: its copies share their fields until one changes, and two requests
/// are equal, and hash alike, when their fields are.
struct SyncRequestValueTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() throws {
        let request = SyncRequest(
            method: .create,
            url: try #require(URL(string: "/notes")),
            body: ["title": "a"],
            headers: ["A": "1"]
        )
        var copy = request
        copy.headers["B"] = "2"
        copy.body = ["title": "b"]
        copy.method = .update
        copy.url = try #require(URL(string: "/notes/1"))

        #expect(request.headers == ["A": "1"])
        #expect(request.body == ["title": "a"])
        #expect(request.method == .create)
        #expect(request.path == "/notes")
        #expect(copy.headers == ["A": "1", "B": "2"])
        #expect(copy.path == "/notes/1")
        #expect(copy != request)
    }

    @Test func requestsWithEqualFieldsAreEqualAndHashAlike() throws {
        let url = try #require(URL(string: "/notes/1"))
        var first = SyncRequest(method: .read, url: url, query: [URLQueryItem(name: "a", value: "1")])
        let second = SyncRequest(method: .read, url: url, query: [URLQueryItem(name: "a", value: "1")])
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)

        first.timeout = .seconds(5)
        #expect(first != second)
        first.timeout = nil
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func everyFieldReadsBackWhatWasSet() throws {
        var request = SyncRequest(method: .read, url: try #require(URL(string: "/notes")))
        request.query = [URLQueryItem(name: "page", value: "2")]
        request.timeout = .seconds(3)
        request.maximumResponseBytes = 1024
        request.emulateHTTP = true
        request.emulateJSON = false
        request.context = ["trace": "x"]
        request.requestBody = .formURLEncoded([("title", "a")])
        request.rootKey = "note"
        request.listKeyPath = "results"
        request.pageStyle = .pageNumber(page: "page", perPage: "per_page", firstPage: 1)
        let reports = UploadReports()
        request.onUploadProgress = { _ in reports.count() }
        let copy = request

        #expect(copy.query == [URLQueryItem(name: "page", value: "2")])
        #expect(copy.timeout == .seconds(3))
        #expect(copy.maximumResponseBytes == 1024)
        #expect(copy.emulateHTTP == true)
        #expect(copy.emulateJSON == false)
        #expect(copy.context == ["trace": "x"])
        #expect(copy.requestBody == .formURLEncoded([("title", "a")]))
        #expect(copy.rootKey == "note")
        #expect(copy.listKeyPath == "results")
        #expect(copy.pageStyle == .pageNumber(page: "page", perPage: "per_page", firstPage: 1))
        #expect(copy.onUploadProgress != nil)
        #expect(copy == request)
    }
}

/// Counts upload progress reports, from any thread.
private final class UploadReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports = 0

    func count() {
        lock.lock()
        reports += 1
        lock.unlock()
    }
}
