import Foundation
import Keel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listener on 127.0.0.1 that accepts every connection and never answers: the server a
/// request can only leave by its timeout.
///
/// It holds each accepted connection open until ``stop()``, so the client sees neither a
/// reset nor an end of stream.
///
/// ```swift
/// let blackHole = try BlackHoleListener()
/// defer { blackHole.stop() }
/// blackHole.baseURL  // http://127.0.0.1:PORT
/// ```
final class BlackHoleListener: Sendable {
    /// The base URL, `http://127.0.0.1:PORT`.
    let baseURL: URL

    private let descriptor: Int32
    private let state = Lock<(isStopped: Bool, connections: [Int32])>((false, []))

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - Throws: ``UsageError`` when no socket can be bound.
    init() throws {
        let (descriptor, baseURL) = try listeningLoopbackSocket(backlog: 1024)
        self.descriptor = descriptor
        self.baseURL = baseURL
        Thread { self.acceptLoop() }.start()
    }

    /// Stops accepting, then closes every connection it holds.
    func stop() {
        let connections = state.withLock { state in
            state.isStopped = true
            defer { state.connections = [] }
            return state.connections
        }
        for connection in connections { close(connection) }
    }

    /// Accepts connections until ``stop()``, polling ten times a second.
    private func acceptLoop() {
        defer { close(descriptor) }
        while !state.withLock({ $0.isStopped }) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            let kept = state.withLock { state in
                if !state.isStopped { state.connections.append(connection) }
                return !state.isStopped
            }
            if !kept { close(connection) }
        }
    }
}
