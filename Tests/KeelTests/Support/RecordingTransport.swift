import Foundation
import Keel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` double: records every `URLRequest` it is given and answers with
/// canned responses, as Backbone's test environment records `ajaxSettings`.
///
/// ```swift
/// let transport = RecordingTransport()
/// transport.enqueue(.json(#"{"id": 1}"#, status: 201))
/// let api = RESTSync(baseURL: URL(string: "https://example.test")!, transport: transport)
/// try await note.save()
/// transport.lastRequest?.httpMethod  // "POST"
/// ```
final class RecordingTransport: HTTPTransport {
    /// A canned HTTP answer.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// A JSON answer (`Content-Type: application/json`).
        static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Response {
            Response(
                status: status,
                headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
                body: Data(text.utf8)
            )
        }

        /// A non-JSON answer, such as an HTML error page.
        static func text(_ text: String, status: Int, contentType: String = "text/html") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }

        /// An answer without a body, such as a 204.
        static func empty(status: Int = 204) -> Response {
            Response(status: status, headers: [:], body: Data())
        }
    }

    /// What the transport does with one request.
    enum Outcome: Sendable {
        /// Answers with an HTTP response.
        case respond(Response)
        /// Throws a `URLError`, as `URLSession` does for transport failures.
        case fail(URLError)
        /// Throws a `CancellationError`.
        case cancel
        /// Answers with a `URLResponse` that is not an `HTTPURLResponse`.
        case notHTTP
    }

    private struct State {
        var requests: [URLRequest] = []
        var queued: [Outcome] = []
    }

    private let state = Lock(State())
    private let fallback: Outcome

    /// Creates a transport that answers every request with `fallback` unless an outcome was
    /// queued with ``enqueue(_:)``.
    init(_ fallback: Outcome = .respond(.json("{}"))) {
        self.fallback = fallback
    }

    /// Queues the outcome of the next request that has none yet.
    func enqueue(_ outcome: Outcome) {
        state.withLock { $0.queued.append(outcome) }
    }

    /// Queues the response to the next request that has none yet.
    func enqueue(_ response: Response) {
        enqueue(.respond(response))
    }

    /// Every request sent so far, in order.
    var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The latest request sent.
    var lastRequest: URLRequest? { requests.last }

    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let outcome = state.withLock { state in
            state.requests.append(request)
            return state.queued.isEmpty ? fallback : state.queued.removeFirst()
        }
        let url = request.url ?? URL(fileURLWithPath: "/")
        switch outcome {
        case .respond(let response):
            guard
                let http = HTTPURLResponse(
                    url: url,
                    statusCode: response.status,
                    httpVersion: "HTTP/1.1",
                    headerFields: response.headers
                )
            else { throw URLError(.badServerResponse) }
            return (response.body, http)
        case .fail(let error):
            throw error
        case .cancel:
            throw CancellationError()
        case .notHTTP:
            return (Data(), URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil))
        }
    }
}

// MARK: - Reading recorded requests

extension URLRequest {
    /// The body as UTF-8 text (`""` without a body).
    var recordedBodyText: String {
        httpBody.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The body parsed as JSON, or `nil` when there is none or it is not JSON.
    var recordedJSON: JSONValue? {
        httpBody.flatMap(RecordedJSON.parse)
    }

    /// The fields of a form-encoded body (`application/x-www-form-urlencoded`), decoded.
    var recordedFormFields: [String: String] {
        var fields: [String: String] = [:]
        for pair in recordedBodyText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    /// The value of a header, looked up case-insensitively.
    func recordedHeader(_ name: String) -> String? {
        allHTTPHeaderFields?.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Parses JSON text into a ``JSONValue`` with Foundation, independently of Keel's own parser,
/// so request bodies are checked by a second implementation.
enum RecordedJSON {
    static func parse(_ data: Data) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return convert(object)
    }

    static func parse(_ text: String) -> JSONValue? {
        parse(Data(text.utf8))
    }

    private static func convert(_ object: Any) -> JSONValue {
        switch object {
        case is NSNull:
            return .null
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            // Booleans are NSNumbers whose Objective-C type is `c` (char).
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            if let int = Int(exactly: number.doubleValue), !number.stringValue.contains(".") {
                return .int(int)
            }
            return .double(number.doubleValue)
        case let array as [Any]:
            return .array(array.map(convert))
        case let dictionary as [String: Any]:
            return .object(JSONObject(dictionary.mapValues(convert)))
        default:
            return .null
        }
    }
}
