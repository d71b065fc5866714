import Foundation
import KeelTestServer
import Testing

/// What one run of the `todos` executable produced.
struct TodosResult: CustomStringConvertible {
    /// The exit status.
    var status: Int32
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String

    var description: String {
        "exit status \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }
}

/// A temporary directory for one test, with its own store, home and data directories, in
/// which the built `todos` executable runs.
///
/// The child gets a clean environment: `HOME` is inside the sandbox (so a default store can
/// never touch the real one), `NO_COLOR` is set, and `TODOS_STORE`, `TODOS_SERVER` and
/// `XDG_DATA_HOME` are unset unless a test sets them.
final class TodosSandbox: Sendable {
    /// The sandbox directory; removed when the sandbox goes away.
    let directory: URL

    /// The store file that ``run(_:environment:useStore:)`` passes with `--store`.
    var store: URL { directory.appendingPathComponent("todos.sqlite") }

    /// The child's home directory.
    var home: URL { directory.appendingPathComponent("home", isDirectory: true) }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("todos-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("home", isDirectory: true),
            withIntermediateDirectories: true
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `todos` with the arguments, by default against this sandbox's store.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: Variables to set (or, with an empty value, to pass as empty).
    ///   - useStore: Whether to put `--store <sandbox>/todos.sqlite` before the arguments.
    /// - Returns: The exit status and the output.
    /// - Throws: When the executable cannot be found or started.
    func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        useStore: Bool = true
    ) async throws -> TodosResult {
        var childEnvironment: [String: String?] = ["TODOS_STORE": nil, "TODOS_SERVER": nil, "XDG_DATA_HOME": nil]
        childEnvironment["HOME"] = home.path
        childEnvironment["NO_COLOR"] = "1"
        for (name, value) in environment { childEnvironment[name] = value }
        return try await TodosExecutable.run(
            (useStore ? ["--store", store.path] : []) + arguments,
            environment: childEnvironment,
            in: directory
        )
    }

    /// Runs `todos` and requires exit status 0.
    @discardableResult
    func succeed(
        _ arguments: [String],
        environment: [String: String] = [:],
        useStore: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TodosResult {
        let result = try await run(arguments, environment: environment, useStore: useStore)
        #expect(
            result.status == 0,
            "todos \(arguments.joined(separator: " ")): \(result)",
            sourceLocation: sourceLocation
        )
        return result
    }
}

/// The built `todos` executable (see `BuiltProduct`; `TODOS_EXECUTABLE` names another).
enum TodosExecutable {
    /// Runs `todos` in `directory` with exactly the variables of `environment`, the test
    /// process's others removed or kept as `environment` says.
    static func run(
        _ arguments: [String],
        environment: [String: String?],
        in directory: URL
    ) async throws -> TodosResult {
        let result = try await BuiltProduct.run(
            "todos",
            arguments: arguments,
            environment: environment,
            in: directory,
            limit: .seconds(60)
        )
        return TodosResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The executable.
    static func url() throws -> URL {
        try BuiltProduct.url(of: "todos")
    }
}
