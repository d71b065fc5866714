import Foundation
import Testing

/// A store nobody may change: a command that only reads works, and one that would change it
/// says so in one sentence.
///
/// The file is made immutable (`chattr +i`), which denies writes to root too, so the test
/// runs where CI runs as root.
#if os(Linux)
    struct TodosReadOnlyStoreTests {
        private static let chattr = URL(fileURLWithPath: "/usr/bin/chattr")

        /// Sets or clears the immutable attribute; `false` when the file system or the
        /// process's capabilities do not allow it.
        private func setImmutable(_ file: URL, _ immutable: Bool) throws -> Bool {
            let process = Process()
            process.executableURL = Self.chattr
            process.arguments = [immutable ? "+i" : "-i", file.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chattr.path)))
        func aChangeToAReadOnlyStoreSaysSoOnce() async throws {
            let sandbox = try TodosSandbox()
            try await sandbox.succeed(["add", "Mine"])
            try #require(try setImmutable(sandbox.store, true), "chattr +i is not allowed here")
            defer { _ = try? setImmutable(sandbox.store, false) }

            let result = try await sandbox.run(["add", "More"])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr == "todos: error: cannot change the todo store \(sandbox.store.path): it is read-only\n"
            )
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chattr.path)))
        func aReadOnlyStoreIsListed() async throws {
            let sandbox = try TodosSandbox()
            try await sandbox.succeed(["add", "Mine"])
            try #require(try setImmutable(sandbox.store, true), "chattr +i is not allowed here")
            defer { _ = try? setImmutable(sandbox.store, false) }

            let result = try await sandbox.run(["list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("Mine"), "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }
#endif
