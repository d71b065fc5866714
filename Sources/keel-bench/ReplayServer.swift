import Foundation
import Keel

/// The `replay` run's own server (`REPLAY_URL=loopback`): a ``LoopbackServer`` that answers
/// each `POST` with `201 {"id": n}` (ids counting from 1) after `work` of blocking work on
/// its connection's thread, as a server that takes that long per create; and
/// `GET /__creates` with the count, in the shape of the Django test server's
/// (`{"/notes": {"creates": n, "replays": 0}}`). It has no idempotency keys to look up.
enum ReplayServer {
    static func start(work: Duration) throws -> LoopbackServer {
        let creates = Lock(0)
        let seconds = Double(work.components.seconds) + Double(work.components.attoseconds) / 1e18
        return try LoopbackServer(body: "") { requestLine in
            guard requestLine.hasPrefix("POST ") else {
                let count = creates.withLock { $0 }
                return response(status: 200, body: #"{"/notes": {"creates": \#(count), "replays": 0}}"#)
            }
            if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            let id = creates.withLock { count in
                count += 1
                return count
            }
            return response(status: 201, body: #"{"id": \#(id)}"#)
        }
    }

    /// The bytes of a JSON answer.
    private static func response(status: Int, body: String) -> [UInt8] {
        let head =
            "HTTP/1.1 \(status) OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return Array((head + body).utf8)
    }
}
