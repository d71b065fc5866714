import Foundation
import Keel
import KeelTestServer
import Synchronization
import Testing

/// `todos watch` prints the list, prints it again when another `todos` process changes the
/// store, and exits with status 0 on Ctrl-C (SIGINT).
struct TodosWatchTests {
    @Test func watchReprintsWhatAnotherProcessChangesAndStopsOnInterrupt() async throws {
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["add", "Buy milk"])
        let watcher = try WatchingTodos(sandbox: sandbox)
        defer { watcher.kill() }
        await watcher.output { $0.contains("1. [ ] Buy milk #1") }

        try await sandbox.succeed(["add", "Walk the dog"])
        await watcher.output { $0.contains("2. [ ] Walk the dog #2") }
        try await sandbox.succeed(["toggle", "1"])
        await watcher.output { $0.contains("1. [x] Buy milk") }
        try await sandbox.succeed(["remove", "2"])
        await watcher.output { $0.hasSuffix("Todos (0 active, 1 completed)\n  1. [x] Buy milk #1\n") }

        let status = await watcher.interrupt()
        #expect(status == 0, "\(watcher.text)")
    }
}

/// `todos --server URL watch` prints the server's todos, prints them again when another
/// client of the server changes them, and keeps going while the server is away.
struct TodosServerWatchTests {
    @Test func watchShowsAnotherClientsChangesOnTheServer() async throws {
        let server = try await StoppableServer()
        let sandbox = try TodosSandbox()
        try await sandbox.succeed(["--server", server.base, "add", "Buy milk"], useStore: false)
        let watcher = try WatchingTodos(sandbox: sandbox, server: server.base)
        defer { watcher.kill() }
        await watcher.output { $0.contains("1. [ ] Buy milk #1") }

        // Another client: straight to the server, not through this sandbox's local copy.
        let base = try #require(URL(string: server.base))
        let other = RESTSync(baseURL: base)
        let list = try #require(URL(string: "/todos"))
        let created = try await other.perform(
            SyncRequest(method: .create, url: list, body: ["title": "Walk the dog"])
        )
        let id = try #require(created.body?["id"]?.intValue)
        await watcher.output { $0.contains("2. [ ] Walk the dog #\(id)") }
        _ = try await other.perform(
            SyncRequest(method: .patch, url: list.appending(path: String(id)), body: ["done": true])
        )
        await watcher.output { $0.contains("2. [x] Walk the dog") }

        await server.stop()
        try await server.start()
        // The restarted server has no todos (it keeps them in memory): the list empties.
        await watcher.output { $0.hasSuffix("Todos (0 active, 0 completed)\n  Nothing to do. Add a todo with: todos add <title>\n") }

        let status = await watcher.interrupt()
        #expect(status == 0, "\(watcher.text)")
    }
}

/// A `todos watch` child whose standard output the test reads as it comes.
private final class WatchingTodos: Sendable {
    private let process: Process
    private let state = Mutex<(text: String, isClosed: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        ("", false, [])
    )
    private let exit = Mutex<(status: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    /// Starts `todos watch` on the sandbox's store, or with `--server server` when given.
    init(sandbox: TodosSandbox, server: String? = nil) throws {
        let process = Process()
        process.executableURL = try TodosExecutable.url()
        process.arguments = server.map { ["--server", $0, "watch"] } ?? ["--store", sandbox.store.path, "watch"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = sandbox.home.path
        environment["NO_COLOR"] = "1"
        environment["TODOS_STORE"] = nil
        environment["TODOS_SERVER"] = nil
        process.environment = environment
        process.currentDirectoryURL = sandbox.directory
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        self.process = process
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            let waiters = self.state.withLock { state in
                state.text += String(decoding: data, as: UTF8.self)
                state.isClosed = data.isEmpty
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        process.terminationHandler = { [weak self] process in
            guard let self else { return }
            let waiter = self.exit.withLock { exit in
                exit.status = process.terminationStatus
                return exit.waiter
            }
            waiter?.resume(returning: process.terminationStatus)
        }
        try process.run()
        // A guard, not a timing: a watcher that never prints what a test waits for is killed,
        // which closes its output and ends the wait.
        Task.detached { [process] in
            try? await Task.sleep(for: .seconds(60))
            if process.isRunning { process.terminate() }
        }
    }

    /// Everything the child printed so far.
    var text: String { state.withLock { $0.text } }

    /// Waits until the output so far satisfies `condition`; records an issue when the child
    /// closes its output first.
    func output(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
        while true {
            var isMet = false
            var isClosed = false
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    isMet = condition(state.text)
                    isClosed = state.isClosed
                    if isMet || isClosed { continuation.resume() } else { state.waiters.append(continuation) }
                }
            }
            if isMet { return }
            if isClosed {
                Issue.record("todos watch stopped before printing it: \(text)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// Sends SIGINT, as Ctrl-C does, and waits for the exit status.
    func interrupt() async -> Int32 {
        process.interrupt()
        return await withCheckedContinuation { continuation in
            let status = exit.withLock { exit in
                if exit.status == nil { exit.waiter = continuation }
                return exit.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Kills the child if it still runs.
    func kill() {
        if process.isRunning { process.terminate() }
    }
}
