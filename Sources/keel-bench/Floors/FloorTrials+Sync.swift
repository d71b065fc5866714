import Foundation
import Keel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - sync_fetch

extension FloorTrials {
    /// The floor of `sync_fetch`'s state: the same loopback server, an ephemeral
    /// `URLSession` (what `RESTSync` uses) and the check value of the last timed run.
    final class SyncFetchState: Sendable {
        let server: LoopbackServer
        let session = URLSession(configuration: .ephemeral)
        let check = Lock(0)

        init() throws {
            server = try LoopbackServer(body: notesJSON(count: syncFetchRecords))
        }

        deinit { server.stop() }
    }

    /// The floor of `sync_fetch`: the raw way to fetch the list, `URLSession.data(for:)`
    /// and `JSONSerialization`, giving an array of dictionaries.
    static func syncFetch() -> Trial {
        Trial(
            setup: { try SyncFetchState() },
            body: { state in
                try waitFor {
                    var check = 0
                    let url = state.server.baseURL.appendingPathComponent("notes")
                    for _ in 0..<syncFetchRounds {
                        var request = URLRequest(url: url)
                        request.setValue("application/json", forHTTPHeaderField: "Accept")
                        let (data, response) = try await state.session.data(for: request)
                        try expect((response as? HTTPURLResponse)?.statusCode == 200, "status")
                        let rows = try unwrap(
                            try JSONSerialization.jsonObject(with: data) as? [[String: Any]],
                            "not an array of objects"
                        )
                        check += syncFetchChecksum(
                            rows.map { (($0["id"] as? Int) ?? -1, ($0["title"] as? String)?.utf8.count ?? 0) }
                        )
                    }
                    state.check.withLock { [check] in $0 = check }
                }
            },
            verify: { state in state.check.withLock { $0 } }
        )
    }
}
