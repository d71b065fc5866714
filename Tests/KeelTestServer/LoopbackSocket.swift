#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket bound to a port of 127.0.0.1 and not listening: connections to the port are
/// refused, and no other socket can be given the port while it is open.
///
/// With `sharedWithRestarts`, the socket sets `SO_REUSEADDR` and `SO_REUSEPORT`, as the Django
/// test server does for a fixed `--port`; that server can then bind the port while this socket
/// still holds it, so a test that stops and restarts a server keeps the port from the tests
/// running beside it for the whole time.
///
///     let held = try LoopbackSocket()
///     // http://127.0.0.1:\(held.port) refuses connections until `held.close()`
public final class LoopbackSocket: @unchecked Sendable {
    /// The bound port.
    public let port: Int
    private var descriptor: Int32

    /// Binds `port` (`0`: a free port the system picks).
    public init(port: Int = 0, sharedWithRestarts: Bool = false) throws(LoopbackSocketError) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackSocketError(description: "socket() failed") }
        if sharedWithRestarts {
            var on: Int32 = 1
            let size = socklen_t(MemoryLayout<Int32>.size)
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, size)
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, size)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            closeDescriptor(descriptor)
            throw LoopbackSocketError(description: "cannot bind port \(port) of 127.0.0.1")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close() }

    /// Hands the descriptor over to a caller that closes it (a listener that goes on to
    /// `listen` on it); this value no longer closes it.
    public func takeDescriptor() -> Int32 {
        let taken = descriptor
        descriptor = -1
        return taken
    }

    /// Closes the socket and frees the port; closing twice does nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
    }
}

/// Why a ``LoopbackSocket`` could not be bound.
public struct LoopbackSocketError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}
