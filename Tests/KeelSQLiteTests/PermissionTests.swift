import Foundation
import Testing

@testable import KeelSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a store that the file permissions forbid fails with
/// `SQLiteStoreError.permissionDenied`, naming the file or directory and what is missing; a
/// file that can be read but not written opens read-only. `ReadOnlyStoreTests` checks the
/// same on real permissions, in an unprivileged child process.
struct PermissionTests {
    /// A probe that denies `mode` on `path` and allows everything else that exists.
    private func denying(_ path: String, _ mode: Int32) -> SQLiteFileAccess.Probe {
        { candidate, requested in
            if candidate == path && requested & mode != 0 { return EACCES }
            return SQLiteFileAccess.system(candidate, requested)
        }
    }

    @Test func anUnreadableFileIsReportedAsSuchAndAnUnwritableOneOpensReadOnly() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite").path(percentEncoded: false)
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            #expect(
                throws: SQLiteStoreError.permissionDenied(
                    path: file,
                    message: "the file cannot be read (permission denied)"
                )
            ) {
                try SQLiteFileAccess.check(databasePath: file, probe: denying(file, R_OK))
            }
            let unwritable = try SQLiteFileAccess.check(databasePath: file, probe: denying(file, W_OK))
            let writable = try SQLiteFileAccess.check(databasePath: file)
            #expect(unwritable == .readOnly)
            #expect(writable == .readWrite)
        }
    }

    @Test func aDirectoryThatCannotBeWrittenIsReportedAsSuch() async throws {
        try await withTemporaryDirectory { directory in
            let parent = directory.path(percentEncoded: false)
            let trimmed = parent.hasSuffix("/") ? String(parent.dropLast()) : parent
            let file = directory.appending(path: "store.sqlite").path(percentEncoded: false)
            let error = #expect(throws: SQLiteStoreError.self) {
                try SQLiteFileAccess.check(databasePath: file, probe: denying(trimmed, W_OK))
            }
            guard case .permissionDenied(let path, let message) = error else {
                Issue.record("expected .permissionDenied, got \(String(describing: error))")
                return
            }
            #expect(path == trimmed)
            #expect(message.contains("the directory cannot be written"))
            #expect(SQLiteStoreError.permissionDenied(path: path, message: message).description.contains(trimmed))
        }
    }

    @Test func aFileInADirectoryThatCannotBeWrittenOpensImmutableUnlessAWriterLeftALog() async throws {
        try await withTemporaryDirectory { directory in
            let parent = SQLiteFileAccess.displayPath(directory)
            let file = directory.appending(path: "store.sqlite").path(percentEncoded: false)
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            let withoutLog = try SQLiteFileAccess.check(databasePath: file, probe: denying(parent, W_OK))
            _ = FileManager.default.createFile(atPath: file + "-wal", contents: nil)
            let withLog = try SQLiteFileAccess.check(databasePath: file, probe: denying(parent, W_OK))
            #expect(withoutLog == .immutable)
            #expect(withLog == .readOnly)
        }
    }
}
