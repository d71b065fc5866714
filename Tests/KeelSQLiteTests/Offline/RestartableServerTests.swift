import KeelTestServer
import Testing

/// The fixture that takes the network away: while its server is down, the port stays its
/// own, so the server of a test running beside it cannot be given that port.
struct RestartableServerTests {
    @Test func whileTheServerIsDownNoOtherSocketCanTakeItsPort() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            await server.stop()
            #expect(throws: LoopbackSocketError.self) { try LoopbackSocket(port: server.port) }
            try await server.start()
            #expect(try await server.creates().isEmpty)
        }
    }
}
