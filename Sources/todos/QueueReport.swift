import Keel
import KeelSQLite

/// The texts of `todos sync` and `todos status`: what waits for the server, what was sent.
@MainActor
enum QueueReport {
    /// One line per queued change: what it does, and why it waits when it is stuck.
    static func describe(_ change: QueuedChange, problem: String? = nil) -> String {
        let reference = "#" + change.recordID
        let title = change.body?["title"]?.stringValue.map { " \"\(Renderer.displayText($0))\"" } ?? ""
        var line: String
        switch change.method {
        case .create:
            line = "add\(title) (\(reference))"
        case .delete:
            line = "remove \(reference)"
        default:
            if let done = change.body?["done"]?.boolValue, title.isEmpty {
                line = "mark \(reference) \(done ? "completed" : "active")"
            } else {
                line = "edit \(reference)\(title)"
            }
        }
        switch change.state {
        case .pending: if let problem { line += " — " + problem }
        case .failed(let error): line += " — rejected by the server: \(error)"
        case .conflict: line += " — conflicts with a change made on the server"
        }
        return "  " + line + "\n"
    }

    /// `todos status`.
    static func status(_ changes: [QueuedChange], server: String) -> String {
        guard !changes.isEmpty else { return "Nothing waits for \(server): every change has been sent.\n" }
        let conflicts = changes.filter { if case .conflict = $0.state { true } else { false } }.count
        var text = "\(count(changes.count, "change")) wait\(changes.count == 1 ? "s" : "") for \(server)"
        text += conflicts > 0 ? " (\(count(conflicts, "conflict"))):\n" : ":\n"
        return text + changes.map { describe($0) }.joined()
    }

    /// `todos sync`, when the server could be reached.
    static func synced(_ report: ReplayReport, server: String) -> String {
        var text =
            report.sent.isEmpty
            ? "Nothing to send to \(server).\n" : "Sent \(count(report.sent.count, "change")) to \(server).\n"
        for failure in report.failures {
            text += describe(failure.change, problem: "rejected by the server: \(failure.error)")
        }
        for conflict in report.conflicts {
            text += describe(conflict.change, problem: "conflicts with a change made on the server")
        }
        return text
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
