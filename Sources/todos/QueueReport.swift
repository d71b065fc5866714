import Keel
import KeelSQLite

/// The texts of `todos sync`, `status`, `retry` and `discard`: what waits for the server,
/// numbered as `retry` and `discard` take them, and why a change is stuck.
@MainActor
enum QueueReport {
    /// `add "Buy milk" (#local-1)`, `mark #3 completed`, `remove #3`.
    static func summary(of change: QueuedChange) -> String {
        let reference = "#" + change.recordID
        let title = change.body?["title"]?.stringValue.map { " \"\(Renderer.displayText($0))\"" } ?? ""
        switch change.method {
        case .create:
            return "add\(title) (\(reference))"
        case .delete:
            return "remove \(reference)"
        default:
            if let done = change.body?["done"]?.boolValue, title.isEmpty {
                return "mark \(reference) \(done ? "completed" : "active")"
            }
            return "edit \(reference)\(title)"
        }
    }

    /// Why a change waits, when something holds it: the server rejected it, it conflicts,
    /// or an earlier change of its todo is stuck; `nil` for a change that is simply pending.
    static func problem(of change: QueuedChange, in queue: [QueuedChange]) -> String? {
        switch change.state {
        case .failed(let error):
            return "rejected by the server: \(ServerAnswer.summary(of: error))"
        case .conflict:
            return "conflicts with a change made on the server"
        case .pending:
            let blocker = queue.firstIndex {
                $0.sequence < change.sequence && $0.collection == change.collection && $0.recordID == change.recordID
                    && $0.isStuck
            }
            return blocker.map { "waits behind change \($0 + 1)" }
        }
    }

    /// The queue, one numbered line per change, with what holds it; `stoppedAt` marks the
    /// change the server could not take with why.
    static func lines(_ queue: [QueuedChange], stoppedAt: (sequence: Int, reason: String)? = nil) -> String {
        queue.enumerated().map { index, change in
            var line = "  \(index + 1). \(summary(of: change))"
            if let problem = problem(of: change, in: queue) {
                line += " — " + problem
            } else if let stoppedAt, stoppedAt.sequence == change.sequence {
                line += " — " + stoppedAt.reason
            }
            return line + "\n"
        }.joined()
    }

    /// `todos status`.
    static func status(_ queue: [QueuedChange], server: String, localCopy: String) -> String {
        guard !queue.isEmpty else {
            return "Nothing waits for \(server): every change has been sent.\nLocal copy: \(localCopy)\n"
        }
        let stuck = queue.filter(\.isStuck).count
        var text = "\(waiting(queue.count)) for \(server)"
        text += stuck > 0 ? " (\(count(stuck, "rejected or conflicting change"))):\n" : ":\n"
        text += lines(queue)
        text += stuck > 0 ? nextSteps : "'todos sync' sends them.\n"
        return text + "Local copy: \(localCopy)\n"
    }

    /// What to do about stuck changes.
    static let nextSteps =
        "'todos retry <n>' sends a change again, 'todos discard <n>' drops it (or '#id': every change of a todo).\n"

    /// `1 change waits`, `2 changes wait`.
    static func waiting(_ number: Int) -> String {
        "\(count(number, "change")) wait\(number == 1 ? "s" : "")"
    }

    /// `1 change still waits`, `2 changes still wait`.
    static func stillWaiting(_ number: Int) -> String {
        "\(count(number, "change")) still wait\(number == 1 ? "s" : "")"
    }

    /// `1 change`, `2 changes`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

extension QueuedChange {
    /// Whether the change waits for a person: the server rejected it or it conflicts.
    var isStuck: Bool {
        if case .pending = state { return false }
        return true
    }
}
