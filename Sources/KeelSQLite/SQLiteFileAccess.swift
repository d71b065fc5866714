import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks, before SQLite opens a store, what the operating system lets the store do with
/// its file, and decides how to open it.
///
/// SQLite reports a permission problem vaguely ("unable to open database file") or late
/// (reading a write-ahead-logged file from a directory it cannot write fails with
/// `SQLITE_READONLY`), so the store asks first. A file that cannot be read, or a file that
/// does not exist in a directory that cannot be written, fails with a message naming the
/// file or directory and what is missing. A file that can be read but not written (or
/// whose directory cannot be written) opens read-only: reads work, writes fail with
/// ``SQLiteStoreError/readOnly(path:)``.
enum SQLiteFileAccess {
    /// `access(2)`: 0 when allowed, else the `errno`.
    typealias Probe = @Sendable (_ path: String, _ mode: Int32) -> Int32

    /// The system's `access(2)`.
    static let system: Probe = { path, mode in access(path, mode) == 0 ? 0 : errno }

    /// Checks the database at `path` and its directory, and says how to open it.
    ///
    /// A read-only file is opened with `SQLITE_OPEN_READONLY` when SQLite can use its
    /// write-ahead log: when the `-wal` file exists (a writer has it open, or crashed) or the
    /// directory can be written (SQLite creates the `-wal` and `-shm` files). Otherwise no
    /// writer can have the file open, and it is opened as immutable, which needs neither.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - probe: How to ask for access; tests pass a fake.
    /// - Returns: How to open the file.
    /// - Throws: ``SQLiteStoreError/permissionDenied(path:message:)``.
    static func check(databasePath path: String, probe: Probe = system) throws(SQLiteStoreError) -> SQLiteOpenMode {
        let parent = displayPath(URL(filePath: path).deletingLastPathComponent())
        let existing = probe(path, F_OK)
        if existing == EACCES {
            throw .permissionDenied(
                path: parent,
                message: "a directory on the way to the store cannot be searched (permission denied)"
            )
        }
        // The directory exists by now (the store creates it first).
        let directoryIsWritable = !isDenied(probe(parent, W_OK | X_OK))
        guard existing == 0 else {
            guard directoryIsWritable || probe(parent, F_OK) != 0 else {
                throw .permissionDenied(
                    path: parent,
                    message: "the directory cannot be written (permission denied); the store creates its file and "
                        + "its -wal and -shm files there"
                )
            }
            return .readWrite
        }
        if isDenied(probe(path, R_OK)) {
            throw .permissionDenied(path: path, message: "the file cannot be read (permission denied)")
        }
        if directoryIsWritable && !isDenied(probe(path, W_OK)) { return .readWrite }
        return directoryIsWritable || probe(path + "-wal", F_OK) == 0 ? .readOnly : .immutable
    }

    /// Whether `access(2)`'s answer means "not allowed": permission bits (`EACCES`), a
    /// read-only file system (`EROFS`) or an immutable file (`EPERM`).
    private static func isDenied(_ answer: Int32) -> Bool {
        answer == EACCES || answer == EROFS || answer == EPERM
    }

    /// The nearest directory that exists above `directory`, for a directory that cannot be
    /// created.
    static func nearestExistingAncestor(of directory: URL, probe: Probe = system) -> String {
        var current = directory
        while displayPath(current) != "/", probe(displayPath(current), F_OK) != 0 {
            current = current.deletingLastPathComponent()
        }
        return displayPath(current)
    }

    /// A directory's path without a trailing slash, as messages show it (`/` for the root).
    static func displayPath(_ directory: URL) -> String {
        let path = directory.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
