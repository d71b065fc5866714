import Foundation
import Testing

@testable import KeelSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a store that the file permissions forbid fails with
/// `SQLiteStoreError.permissionDenied`, naming the file or directory and what is missing.
struct PermissionTests {
    private static let isRoot = getuid() == 0

    /// A probe that denies `mode` on `path` and allows everything else that exists.
    private func denying(_ path: String, _ mode: Int32) -> SQLiteFileAccess.Probe {
        { candidate, requested in
            if candidate == path && requested & mode != 0 { return EACCES }
            return SQLiteFileAccess.system(candidate, requested)
        }
    }

    @Test func anUnreadableFileIsReportedAsSuch() async throws {
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
            #expect(
                throws: SQLiteStoreError.permissionDenied(
                    path: file,
                    message: "the file cannot be written (permission denied)"
                )
            ) {
                try SQLiteFileAccess.check(databasePath: file, probe: denying(file, W_OK))
            }
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

    /// Root ignores file permissions, so `chmod` cannot make a file it cannot open.
    @Test(.disabled(if: isRoot, "root ignores file permissions, so chmod cannot deny it access"))
    func aReadOnlyFileFailsToOpenWithPermissionDenied() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(path: "store.sqlite")
            try SQLiteSync(fileURL: url).close()
            let file = url.path(percentEncoded: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
            #expect(
                throws: SQLiteStoreError.permissionDenied(
                    path: file,
                    message: "the file cannot be written (permission denied)"
                )
            ) {
                try SQLiteSync(fileURL: url)
            }
        }
    }

    @Test(.disabled(if: isRoot, "root ignores file permissions, so chmod cannot deny it access"))
    func aDirectoryThatCannotBeCreatedFailsWithPermissionDenied() async throws {
        try await withTemporaryDirectory { directory in
            let locked = directory.appending(path: "locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            let error = #expect(throws: SQLiteStoreError.self) {
                try SQLiteSync(fileURL: locked.appending(path: "sub/store.sqlite"))
            }
            guard case .permissionDenied = error else {
                Issue.record("expected .permissionDenied, got \(String(describing: error))")
                return
            }
        }
    }
}
