import Foundation
import Synchronization

/// A test server's child process, started by ``start(_:timeout:)`` once it printed its port.
///
/// The server's stdin is a pipe held by this process, so the server exits by itself when the
/// test process ends, however it ends; ``stop()`` closes it (and sends SIGTERM).
final class ServerProcess: Sendable {
    /// What to launch, and how to name it when it fails.
    struct Launch: Sendable {
        /// The program to run (an interpreter, or the server script itself).
        var executable: URL
        /// Its arguments.
        var arguments: [String]
        /// Variables to set on top of this process's environment.
        var environment: [String: String] = [:]
        /// The working directory (the repository root).
        var directory: URL
        /// The start of the one stdout line that carries the port, such as `KEEL_TEST_SERVER_PORT=`.
        var portMarker: String
        /// The server's name in failure messages, such as `Keel's test server (Tests/Server/serve.py)`.
        var name: String
        /// The last sentence of a start failure: what to install when something is missing.
        var remedy: String
    }

    /// The TCP port the server listens on.
    let port: Int

    private let state: Mutex<Running?>
    private let exit: ProcessExit

    private struct Running {
        let process: Process
        let stdin: FileHandle
    }

    private init(port: Int, process: sending Process, stdin: FileHandle, exit: ProcessExit) {
        self.port = port
        self.exit = exit
        self.state = Mutex(Running(process: process, stdin: stdin))
    }

    deinit {
        stop()
    }

    /// Terminates the server process without waiting for it: closes its stdin and sends
    /// SIGTERM, and SIGKILL five seconds later if it is still running. ``waitUntilExited()``
    /// waits for the exit.
    ///
    /// It never blocks the calling thread: tests stop servers in `defer`, on the cooperative
    /// pool's threads (two on a 2-core machine), and a server that takes seconds to shut down
    /// would otherwise stall every other test meanwhile.
    ///
    /// Safe to call more than once.
    func stop() {
        guard let running = takeRunning() else { return }
        try? running.stdin.close()  // the servers exit on EOF…
        guard !exit.hasExited else { return }
        let pid = running.process.processIdentifier
        kill(pid, SIGTERM)  // …or on SIGTERM, whichever is first
        let exit = self.exit
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(5)) {
            // A process reaped before this check may have left its pid to another one.
            if !exit.hasExited { kill(pid, SIGKILL) }
        }
    }

    /// Takes the running process out of ``state``, once: `nil` when it was taken already.
    private func takeRunning() -> Running? {
        state.withLock { state in
            let running = state
            state = nil
            return running
        }
    }

    #if os(Linux)
        /// Kills the server as a crash of its machine or container does.
        ///
        /// SIGKILL goes to the process and to each of its children (gunicorn's workers), so
        /// none of them runs another line, answers a request or starts a new worker; this
        /// returns once all of them are gone.
        ///
        /// The process is stopped (SIGSTOP) while its children are listed, so it forks none
        /// in between.
        func crash() async {
            guard let running = takeRunning() else { return }
            if !exit.hasExited {
                let pid = running.process.processIdentifier
                kill(pid, SIGSTOP)
                let children = ChildProcesses.of(pid)
                kill(pid, SIGKILL)
                for child in children { kill(child, SIGKILL) }
                await exit.wait()
                await ChildProcesses.waitUntilGone(children)
            }
            try? running.stdin.close()
        }
    #endif

    /// Returns once the server process has exited: a server started next on the same port
    /// (SO_REUSEPORT) must not share it with this one, whose accepted connections would
    /// never be answered.
    func waitUntilExited() async {
        await exit.wait()
    }

    /// Launches the server and waits until it prints `<portMarker><port>`; its stderr goes on
    /// to this process's stderr.
    ///
    /// - Throws: `TestServer.Failure` when it cannot be launched, exits, or prints no port
    ///   within `timeout` (the message holds the start of its stderr and `launch.remedy`).
    static func start(_ launch: Launch, timeout: Duration) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = launch.executable
        process.arguments = launch.arguments
        process.currentDirectoryURL = launch.directory
        process.environment = ProcessInfo.processInfo.environment.merging(launch.environment) { $1 }

        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe

        let startup = Startup(launch: launch)
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                startup.receiveStdout(data)
            }
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                startup.stderrClosed()
            } else {
                startup.receiveStderr(data)
                FileHandle.standardError.write(data)
            }
        }
        let exit = ProcessExit()
        process.terminationHandler = { process in
            startup.exited(status: process.terminationStatus)
            exit.markExited()
        }

        let port: Int
        do {
            port = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await startup.port() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    startup.fail("it did not print its port within \(timeout)")
                    return try await startup.port()
                }
                do {
                    try process.run()
                } catch {
                    startup.fail("\(launch.executable.path) could not be launched: \(error)")
                }
                let port = try await group.next()!
                group.cancelAll()
                return port
            }
        } catch {
            // SIGKILL: a hung child may have SIGTERM blocked (Process on Linux
            // can pass on the spawning thread's signal mask).
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }

        // Keep the writing end of the child's stdin open for as long as the
        // server should run (Process already closed the child's ends here).
        return ServerProcess(port: port, process: process, stdin: stdinPipe.fileHandleForWriting, exit: exit)
    }

    /// Walks up from this file (Tests/KeelTestServer/) to the directory holding `marker`,
    /// a path relative to the repository root such as `Tests/Server/serve.py`.
    static func repositoryRoot(holding marker: String, filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        throw TestServer.Failure(description: "Cannot find \(marker) above \(filePath)")
    }
}

/// Collects the server's output until the port line arrives, or the start fails.
private final class Startup: Sendable {
    private struct State {
        var stdout = Data()
        var stderr = Data()
        var stderrClosed = false
        var exitStatus: Int32?
        var result: Result<Int, TestServer.Failure>?
        var waiters: [CheckedContinuation<Int, any Error>] = []
    }

    private let state = Mutex(State())
    private let launch: ServerProcess.Launch
    private static let stderrLimit = 16 * 1024

    init(launch: ServerProcess.Launch) {
        self.launch = launch
    }

    func receiveStdout(_ data: Data) {
        let marker = launch.portMarker
        let port: Int? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.stdout.append(data)
            // Only complete lines: the port may arrive in pieces.
            let text = String(decoding: state.stdout, as: UTF8.self)
            guard let end = text.lastIndex(of: "\n") else { return nil }
            for line in text[..<end].split(separator: "\n") where line.hasPrefix(marker) {
                return Int(line.dropFirst(marker.count).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return nil
        }
        if let port {
            finish(.success(port))
        }
    }

    func receiveStderr(_ data: Data) {
        state.withLock { state in
            if state.stderr.count < Self.stderrLimit {
                state.stderr.append(data.prefix(Self.stderrLimit - state.stderr.count))
            }
        }
    }

    func stderrClosed() {
        let status = state.withLock { state in
            state.stderrClosed = true
            return state.exitStatus
        }
        if let status { fail("it exited with status \(status)") }
    }

    /// Fails once the process has exited and its stderr is fully read.
    func exited(status: Int32) {
        let stderrClosed = state.withLock { state in
            state.exitStatus = status
            return state.stderrClosed
        }
        if stderrClosed { fail("it exited with status \(status)") }
    }

    func fail(_ reason: String) {
        let stderr = state.withLock { String(decoding: $0.stderr, as: UTF8.self) }
        var message = "\(launch.name) failed to start: \(reason)."
        if !stderr.isEmpty {
            message += "\nIts stderr:\n\(stderr)"
        }
        message += "\n\(launch.remedy)"
        finish(.failure(TestServer.Failure(description: message)))
    }

    /// The port, once known (or the start failure).
    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Int, TestServer.Failure>? = state.withLock { state in
                if state.result == nil {
                    state.waiters.append(continuation)
                }
                return state.result
            }
            if let result {
                continuation.resume(with: result)
            }
        }
    }

    private func finish(_ result: Result<Int, TestServer.Failure>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume(with: result.mapError { $0 as any Error })
        }
    }
}
