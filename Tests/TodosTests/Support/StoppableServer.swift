import KeelTestServer

/// A test server of its own, which a test stops and starts again on the same port.
///
/// Stopped, the network is gone; started again, it is back. Its todos live in memory: a
/// restarted server has none.
final class StoppableServer {
    let port: Int
    private var server: TestServer?

    /// Finds a free port with a first server, then runs the server on that port (so every
    /// later start can take the port again at once).
    init() async throws {
        let probe = try await TestServer.start()
        port = probe.port
        probe.stop()
        await probe.waitUntilExited()
        try await start()
    }

    deinit { server?.stop() }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Stops the server and returns once it has exited: the network is gone.
    func stop() async {
        let stopping = server
        server = nil
        stopping?.stop()
        await stopping?.waitUntilExited()
    }

    /// Starts the server on its port, retrying while the old process still holds it.
    func start() async throws {
        for _ in 0..<30 {
            if let started = try? await TestServer.start(port: port) {
                server = started
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        server = try await TestServer.start(port: port)
    }
}
