import Foundation
import Keel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listener on 127.0.0.1 whose answers a test writes byte by byte: for each connection it
/// reads the request head, then hands a ``Writer`` to the test's closure, and closes the
/// connection when the closure returns.
///
/// ```swift
/// let listener = try StreamingListener { writer in
///     _ = writer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
/// }
/// ```
final class StreamingListener: Sendable {
    /// Writes to one connection.
    struct Writer: Sendable {
        fileprivate let connection: Int32

        /// Writes the text; `false` once the client has closed the connection.
        func write(_ text: String) -> Bool {
            write(Array(text.utf8))
        }

        /// Writes the bytes; `false` once the client has closed the connection.
        func write(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    let baseURL: URL

    private let descriptor: Int32
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - Parameter answer: Writes the answer to each request, on a thread of its own.
    /// - Throws: ``SyncTestFailure`` when no socket can be bound.
    init(answer: @escaping @Sendable (Writer) -> Void) throws {
        let (descriptor, port) = try boundLoopbackSocket()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw SyncTestFailure("cannot listen on 127.0.0.1")
        }
        self.descriptor = descriptor
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        Thread { self.acceptLoop(answer) }.start()
    }

    deinit {
        stop()
    }

    /// Stops accepting connections.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    private func acceptLoop(_ answer: @escaping @Sendable (Writer) -> Void) {
        defer { close(descriptor) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            let writer = Writer(connection: connection)
            Thread {
                defer { close(connection) }
                if Self.readHead(connection) { answer(writer) }
            }.start()
        }
    }

    /// Reads up to the end of the request head.
    private static func readHead(_ connection: Int32) -> Bool {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Array("\r\n\r\n".utf8)
        while data.firstRange(of: terminator) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            data += buffer[..<count]
        }
        return true
    }
}
