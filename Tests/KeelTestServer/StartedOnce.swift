/// Starts each named server once and remembers the result (or the error), so every test that
/// asks for it gets the same server, or fails the same way.
actor StartedOnce<Server: Sendable> {
    private var starting: [String: Task<Server, any Error>] = [:]

    /// The server named `name`, started with `start` on the first call for that name.
    func server(named name: String, start: @escaping @Sendable () async throws -> Server) async throws -> Server {
        if let task = starting[name] {
            return try await task.value
        }
        let task = Task { try await start() }
        starting[name] = task
        return try await task.value
    }
}
