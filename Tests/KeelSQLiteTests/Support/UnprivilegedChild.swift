import Foundation
import Keel
import Testing

@testable import KeelSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens stores in a child process that file permissions apply to.
///
/// Root ignores permission bits, and CI runs as root, so a test that needs "this process
/// cannot write that file" starts the test runner again (as `DurabilityTests` does), running
/// only `ReadOnlyStoreTests/unprivilegedProbe()`. When the tests run as root, the child
/// first becomes `nobody` (uid and gid 65534, no supplementary groups) with `setgid` and
/// `setuid`, which cannot be undone; otherwise it keeps the tests' own user, whom `chmod`
/// already restricts. The child opens the store at ``pathVariable`` with `SQLiteSync` and
/// `SQLiteOfflineStore`, reads, tries to write, and prints one line per step, which the
/// parent compares.
///
/// Re-running the test binary with `--testing-library swift-testing --filter` is how
/// SwiftPM runs Swift Testing on Linux, so these tests run on Linux only.
enum UnprivilegedChild {
    static let pathVariable = "KEEL_UNPRIVILEGED_STORE"
    /// `nobody` on Debian, Ubuntu and Fedora.
    static let unprivilegedID: UInt32 = 65_534
    static let isRoot = getuid() == 0

    /// The directory mode that lets the child search a directory but not write it, and the
    /// mode that lets it write one too (for a directory the tests created as their own user).
    static let searchOnly: Int = 0o555
    static let writable: Int = 0o777

    /// Runs the probe on the store at `path` in a child process and returns its lines.
    static func probe(_ path: String) async throws -> [String] {
        try await onOwnThread { try probeBlocking(path) }
    }

    private static func probeBlocking(_ path: String) throws -> [String] {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "unprivilegedProbe"]
        var environment = ProcessInfo.processInfo.environment
        environment[pathVariable] = path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.compactMap { $0.hasPrefix("KEEL-CHILD ") ? String($0.dropFirst("KEEL-CHILD ".count)) : nil }
    }

    /// Becomes `nobody` when running as root; reports whether the process is unprivileged.
    static func dropPrivileges() -> Bool {
        guard getuid() == 0 else { return true }
        return setgroups(0, nil) == 0 && setgid(unprivilegedID) == 0 && setuid(unprivilegedID) == 0
            && getuid() == unprivilegedID
    }

    static func report(_ line: String) {
        FileHandle.standardOutput.write(Data("KEEL-CHILD \(line)\n".utf8))
    }

    /// Sets the permission bits of `path`.
    static func chmod(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}
