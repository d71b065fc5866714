import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks, before SQLite opens a store, that the operating system's permissions let the
/// store read and write its file and create files next to it.
///
/// SQLite reports a permission problem vaguely ("unable to open database file") or not at
/// all (it falls back to read-only), so the store asks first and names the file or
/// directory and what is missing. Only `EACCES` counts: `EPERM` (an immutable file) is left
/// to SQLite, which reports it as read-only.
enum SQLiteFileAccess {
    /// `access(2)`: 0 when allowed, else the `errno`.
    typealias Probe = @Sendable (_ path: String, _ mode: Int32) -> Int32

    /// The system's `access(2)`.
    static let system: Probe = { path, mode in access(path, mode) == 0 ? 0 : errno }

    /// Checks the database at `path` and its directory.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - probe: How to ask for access; tests pass a fake, since root is never denied.
    /// - Throws: ``SQLiteStoreError/permissionDenied(path:message:)``.
    static func check(databasePath path: String, probe: Probe = system) throws(SQLiteStoreError) {
        let parent = displayPath(URL(filePath: path).deletingLastPathComponent())
        let existing = probe(path, F_OK)
        if existing == EACCES {
            throw .permissionDenied(
                path: parent,
                message: "a directory on the way to the store cannot be searched (permission denied)"
            )
        }
        if existing == 0 {
            if probe(path, R_OK) == EACCES {
                throw .permissionDenied(path: path, message: "the file cannot be read (permission denied)")
            }
            if probe(path, W_OK) == EACCES {
                throw .permissionDenied(path: path, message: "the file cannot be written (permission denied)")
            }
        }
        // The directory exists by now (the store creates it first); the store creates its
        // file and the -wal and -shm files in it.
        if probe(parent, F_OK) == 0, probe(parent, W_OK | X_OK) == EACCES {
            throw .permissionDenied(
                path: parent,
                message: "the directory cannot be written (permission denied); the store creates its -wal and "
                    + "-shm files there"
            )
        }
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
