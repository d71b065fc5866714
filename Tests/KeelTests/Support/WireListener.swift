import Foundation
import Keel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare HTTP/1.1 listener on 127.0.0.1 that records every request exactly as it reaches the
/// wire (request line and headers) and answers each with a reply chosen by the test.
///
/// It speaks just enough HTTP for `URLSession`: one request per connection, then
/// `Connection: close`. Tests that check what a client sends, and to which origin, use two of
/// them: two ports on 127.0.0.1 are two origins.
///
/// ```swift
/// let listener = try WireListener { _ in .json("{}") }
/// defer { listener.stop() }
/// let api = RESTSync(baseURL: listener.baseURL, headers: ["Authorization": "Bearer t"])
/// _ = try await api.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
/// listener.requests.first?.header("Authorization")  // "Bearer t"
/// ```
final class WireListener: Sendable {
    /// One request as it arrived.
    struct Request: Sendable {
        /// The method, such as `GET`.
        var method: String
        /// The request target exactly as sent, such as `/notes/a%2Fb?x=1`.
        var target: String
        /// The header lines, in order, names as sent.
        var headers: [(name: String, value: String)]
        /// The body, as sent (`Content-Length` bytes).
        var body: [UInt8] = []
        /// The request line and the header lines, byte for byte, up to the blank line.
        var head: [UInt8] = []

        /// The value of a header, looked up case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What the listener answers.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String

        /// A JSON answer.
        static func json(_ body: String, status: Int = 200) -> Reply {
            Reply(status: status, headers: ["Content-Type": "application/json"], body: body)
        }

        /// A redirect to `location`.
        static func redirect(to location: String, status: Int = 302) -> Reply {
            Reply(status: status, headers: ["Location": location], body: "")
        }
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// The port the listener accepts connections on.
    let port: Int

    private let server: Server

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - Parameter reply: The answer to each request.
    /// - Throws: ``SyncTestFailure`` when no socket can be bound.
    init(reply: @escaping @Sendable (Request) -> Reply) throws {
        let (descriptor, port) = try boundLoopbackSocket()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw SyncTestFailure("cannot listen on 127.0.0.1")
        }
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let server = Server(descriptor: descriptor, reply: reply)
        self.server = server
        Thread { server.acceptLoop() }.start()
    }

    deinit {
        stop()
    }

    /// Every request received so far, in order.
    var requests: [Request] { server.recorded.withLock { $0 } }

    /// Stops accepting connections.
    ///
    /// Safe to call more than once.
    func stop() {
        server.stopped.store(true, ordering: .sequentiallyConsistent)
    }
}

// MARK: - Serving

/// The state the accepting thread shares with the listener; the thread holds this, not the
/// listener, so dropping the listener stops it.
private final class Server: Sendable {
    let descriptor: Int32
    let recorded = Lock<[WireListener.Request]>([])
    let stopped = Atomic<Bool>(false)
    let reply: @Sendable (WireListener.Request) -> WireListener.Reply

    init(descriptor: Int32, reply: @escaping @Sendable (WireListener.Request) -> WireListener.Reply) {
        self.descriptor = descriptor
        self.reply = reply
    }

    /// Waits for connections, polling so that ``stop()`` ends the loop within a tenth of a
    /// second, then closes the socket.
    func acceptLoop() {
        defer { close(descriptor) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            serve(connection)
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        recorded.withLock { $0.append(request) }
        let answer = reply(request)
        var head = "HTTP/1.1 \(answer.status) Status\r\n"
        for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(answer.body.utf8.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array((head + answer.body).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Reads the request line, the headers and a `Content-Length` body.
    private func readRequest(_ connection: Int32) -> WireListener.Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            data += buffer[..<count]
            headEnd = data.firstRange(of: terminator)?.upperBound
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: data[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((String(line[..<colon]), value))
        }
        var request = WireListener.Request(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            headers: headers
        )
        let bodyLength = Int(request.header("Content-Length") ?? "") ?? 0
        var body = Array(data[headEnd...])
        while body.count < bodyLength {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += buffer[..<count]
        }
        request.body = Array(body.prefix(bodyLength))
        request.head = Array(data[..<headEnd])
        return request
    }
}
