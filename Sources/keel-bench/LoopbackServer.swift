import Foundation
import Keel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that answers every request with the same JSON body
/// (the `sync_fetch` workload), or with what a closure makes of its request line (the
/// `replay` run's creates).
///
/// It keeps connections alive (as any production server does), serves each connection on
/// its own thread, and does no work per request beyond reading the request (its body is
/// skipped by `Content-Length`) and writing the answer, so both sides of a workload pay the
/// same, small server cost.
///
/// ```swift
/// let server = try LoopbackServer(body: notesJSON(count: 1_000))
/// defer { server.stop() }
/// server.baseURL  // http://127.0.0.1:PORT
/// ```
final class LoopbackServer: Sendable {
    /// The base URL, `http://127.0.0.1:PORT`.
    let baseURL: URL

    private let state: ServerState

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - body: The JSON text every response carries (`200 OK`), unless `respond` is given.
    ///   - respond: Makes the bytes of each answer from its request line
    ///     (`POST /notes HTTP/1.1`), on the connection's thread, instead of `body`.
    /// - Throws: ``UsageError`` when no socket can be bound.
    init(body: String, respond: (@Sendable (String) -> [UInt8])? = nil) throws {
        // A client that closes its connection early must not end the benchmark.
        signal(SIGPIPE, SIG_IGN)
        let (descriptor, baseURL) = try listeningLoopbackSocket(backlog: 16)
        self.baseURL = baseURL
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let response = Array((head + body).utf8)
        let state = ServerState(descriptor: descriptor, respond: respond ?? { _ in response })
        self.state = state
        Thread { state.acceptLoop() }.start()
    }

    /// Stops accepting connections; open connections end when their clients close them.
    func stop() {
        state.stopped.withLock { $0 = true }
    }
}

/// A TCP socket bound to a free port of 127.0.0.1 and listening, with its base URL
/// (`http://127.0.0.1:PORT`).
///
/// ```swift
/// let (descriptor, baseURL) = try listeningLoopbackSocket(backlog: 16)
/// ```
///
/// - Parameter backlog: How many connections the kernel queues before they are accepted.
/// - Throws: ``UsageError`` when no socket can be bound.
func listeningLoopbackSocket(backlog: Int32) throws(UsageError) -> (descriptor: Int32, baseURL: URL) {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw UsageError(description: "cannot open a socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard bound == 0, named == 0, listen(descriptor, backlog) == 0,
        let baseURL = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    else {
        close(descriptor)
        throw UsageError(description: "cannot listen on 127.0.0.1")
    }
    return (descriptor, baseURL)
}

/// What the accepting thread and the connection threads share.
private final class ServerState: Sendable {
    let descriptor: Int32
    let respond: @Sendable (String) -> [UInt8]
    let stopped = Lock(false)

    init(descriptor: Int32, respond: @escaping @Sendable (String) -> [UInt8]) {
        self.descriptor = descriptor
        self.respond = respond
    }

    /// Accepts connections until ``LoopbackServer/stop()``, polling ten times a second.
    func acceptLoop() {
        defer { close(descriptor) }
        while !stopped.withLock({ $0 }) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            Thread { self.serve(connection) }.start()
        }
    }

    /// Answers each request that arrives on `connection` until the client closes it.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let terminator = Array("\r\n\r\n".utf8)
        while true {
            while let end = pending.firstRange(of: terminator)?.upperBound {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                let length = Self.contentLength(of: head)
                guard pending.count >= end + length else { break }
                pending.removeSubrange(..<(end + length))
                let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
                guard write(respond(requestLine), to: connection) else { return }
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            pending += buffer[..<count]
        }
    }

    /// The `Content-Length` of a request head, 0 without one.
    private static func contentLength(of head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    private func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
