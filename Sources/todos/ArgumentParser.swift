/// A small command-line parser: long options (`--store PATH`, `--store=PATH`), short flags
/// (`-h`), positional arguments, and `--` to end the options.
///
/// It knows nothing about the commands; ``Invocation`` interprets its result, and explains
/// unknown options in the context of the command. Options may appear anywhere before `--`,
/// so `todos add Milk --store x.sqlite` and `todos --store x.sqlite add Milk` mean the same.
struct ArgumentParser {
    /// One option the parser recognizes.
    struct Option: Hashable {
        /// The long name without dashes, such as `"store"`.
        var name: String
        /// A one-letter alias, such as `"h"` for `-h`.
        var shortName: Character?
        /// Whether the option takes a value (`--store PATH`) or is a flag (`--all`).
        var takesValue: Bool

        /// A flag such as `--all`.
        static func flag(_ name: String, short: Character? = nil) -> Option {
            Option(name: name, shortName: short, takesValue: false)
        }

        /// An option with a value, such as `--store PATH`.
        static func value(_ name: String) -> Option {
            Option(name: name, shortName: nil, takesValue: true)
        }
    }

    /// The result: options in the order given, and the positional arguments.
    struct Result: Equatable {
        /// Each option as it appeared, with its value for options that take one.
        var options: [(name: String, value: String?)] = []
        /// The arguments that are not options, in order.
        var positionals: [String] = []
        /// The arguments that look like options but name none, as given (`--bogus=1`, `-x`).
        var unknownOptions: [String] = []

        /// Whether the flag or option appeared at all.
        func contains(_ name: String) -> Bool {
            options.contains { $0.name == name }
        }

        /// The value of the last occurrence of an option, as in most Unix tools.
        func value(of name: String) -> String? {
            options.last { $0.name == name }?.value
        }

        static func == (lhs: Result, rhs: Result) -> Bool {
            lhs.positionals == rhs.positionals && lhs.unknownOptions == rhs.unknownOptions
                && lhs.options.map(\.name) == rhs.options.map(\.name)
                && lhs.options.map(\.value) == rhs.options.map(\.value)
        }
    }

    /// The options this parser accepts.
    var options: [Option]

    /// Splits the arguments into options and positional arguments.
    ///
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The options and positional arguments.
    /// - Throws: ``UsageError`` for a missing value or a value given to a flag. Unknown
    ///   options are no error here: they go to ``Result/unknownOptions``, because what to
    ///   suggest depends on the command.
    func parse(_ arguments: [String]) throws(UsageError) -> Result {
        var result = Result()
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(argument) {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard let (option, inlineValue) = lookUp(argument) else {
                result.unknownOptions.append(argument)
                continue
            }
            if option.takesValue {
                var value = inlineValue
                if value == nil, index < arguments.endIndex, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                }
                guard let value else {
                    throw UsageError("option '--\(option.name)' needs a value")
                }
                result.options.append((option.name, value))
            } else {
                if inlineValue != nil {
                    throw UsageError("option '--\(option.name)' does not take a value")
                }
                result.options.append((option.name, nil))
            }
        }
        return result
    }

    /// Finds the option an argument such as `--store=x`, `--all` or `-h` names, with its
    /// inline value; `nil` when it names none.
    private func lookUp(_ argument: String) -> (Option, String?)? {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name: Substring
            let value: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                value = String(body[body.index(after: equals)...])
            } else {
                name = body
                value = nil
            }
            return options.first { $0.name == name }.map { ($0, value) }
        }
        let letters = argument.dropFirst()
        guard letters.count == 1, let letter = letters.first else { return nil }
        return options.first { $0.shortName == letter }.map { ($0, nil) }
    }

    /// Whether an argument is an option: it starts with `-`, but is neither `-` alone nor a
    /// negative number, so `todos add -5 degrees outside` needs no `--`.
    private static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        let second = argument[argument.index(after: argument.startIndex)]
        return !second.isNumber
    }
}

/// A mistake on the command line: exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, such as `unknown command 'ad'`.
    var message: String
    /// What to do about it, printed on its own line.
    var hint: String?

    /// Creates a usage error.
    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    var description: String { message }
}
