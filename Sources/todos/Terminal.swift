import Foundation

/// Where `todos` writes: standard output and standard error, with optional colors.
struct Terminal {
    /// Writes to standard output.
    var write: (String) -> Void
    /// Writes to standard error.
    var writeError: (String) -> Void
    /// Whether standard output gets ANSI colors.
    var usesColor: Bool
    /// Whether standard error gets ANSI colors.
    var usesColorForErrors: Bool

    /// The process's own streams.
    ///
    /// Colors only go to a terminal, and only when ``allowsColor(environment:)``. Output
    /// that cannot be written (a closed stream, a reader that is gone) is dropped: the
    /// command has done its work by then, and its exit status still says how it went.
    /// `SIGPIPE` is ignored for the same reason, so a reader that stops early does not kill
    /// the process.
    static func standard(environment: [String: String]) -> Terminal {
        signal(SIGPIPE, SIG_IGN)
        let colorAllowed = allowsColor(environment: environment)
        return Terminal(
            write: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
            writeError: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) },
            usesColor: colorAllowed && isatty(STDOUT_FILENO) == 1,
            usesColorForErrors: colorAllowed && isatty(STDERR_FILENO) == 1
        )
    }

    /// Whether the environment allows colors: not when `NO_COLOR` holds a value (an empty
    /// `NO_COLOR` does not count, as no-color.org says) or `TERM` is `dumb`.
    static func allowsColor(environment: [String: String]) -> Bool {
        environment["NO_COLOR", default: ""].isEmpty && environment["TERM"] != "dumb"
    }

    /// ANSI styles.
    enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
    }

    /// The text in a style, when colors are on.
    func styled(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Reports an error as `todos: error: <message>`, followed by a hint line if any.
    func reportError(_ message: String, hint: String? = nil) {
        let label = usesColorForErrors ? "\u{1B}[1;31merror:\u{1B}[0m" : "error:"
        var text = "todos: \(label) \(message)\n"
        if let hint { text += hint + "\n" }
        writeError(text)
    }
}
