import Keel

/// Why a command failed; each case has its own exit status.
enum TodosError: Error {
    /// The command line is wrong, or names a todo that does not exist: exit status 2.
    case usage(UsageError)
    /// The todo is invalid, locally or according to the server: exit status 3.
    case invalid(ValidationError)
    /// The store or the server failed, or a change could not be sent: exit status 1.
    case backend(String, hint: String? = nil)

    /// The process's exit status for this failure.
    var exitStatus: Int32 {
        switch self {
        case .backend: return 1
        case .usage: return 2
        case .invalid: return 3
        }
    }

    /// The sentence after `todos: error:`.
    var message: String {
        switch self {
        case .usage(let error):
            return error.message
        case .invalid(let error):
            // "title can't be blank" reads as a sentence once capitalized.
            let messages = error.fullMessages.isEmpty ? ["the todo is invalid"] : error.fullMessages
            return messages.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "; ")
        case .backend(let message, _):
            return message
        }
    }

    /// A line about what to do next, if there is one.
    var hint: String? {
        switch self {
        case .usage(let error): return error.hint
        case .backend(_, let hint): return hint
        case .invalid: return nil
        }
    }
}
