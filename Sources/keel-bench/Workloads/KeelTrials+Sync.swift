import Keel

// MARK: - sync_fetch

extension KeelTrials {
    /// `sync_fetch`'s state: a loopback server that answers every request with the 1,000
    /// notes of ``notesJSON(count:)``, a `RESTSync` for it, and the check value of the last
    /// timed run.
    final class SyncFetchState: Sendable {
        let server: LoopbackServer
        let sync: RESTSync
        let check = Lock(0)

        init() throws {
            server = try LoopbackServer(body: notesJSON(count: syncFetchRecords))
            sync = RESTSync(baseURL: server.baseURL)
        }

        deinit { server.stop() }
    }

    /// `sync_fetch`: 100 times, a new `Collection<Note>` fetches the list over HTTP, which
    /// builds 1,000 models from the response.
    static func syncFetch() -> Trial {
        Trial(
            setup: { try SyncFetchState() },
            body: { state in
                try waitFor {
                    var check = 0
                    for _ in 0..<syncFetchRounds {
                        let notes = Collection<Note>(url: "/notes", sync: state.sync)
                        try await notes.fetch()
                        check += syncFetchChecksum(
                            notes.models.map { ($0.intID, $0["title"]?.stringValue?.utf8.count ?? 0) }
                        )
                    }
                    state.check.withLock { [check] in $0 = check }
                }
            },
            verify: { state in state.check.withLock { $0 } }
        )
    }
}
