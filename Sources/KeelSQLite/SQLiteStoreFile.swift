import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a store's file, as `SQLiteSync` and `SQLiteOfflineStore` both do: create its
/// directory, check the permissions (``SQLiteFileAccess``), check the write-ahead log
/// (``WriteAheadLogGuard``) unless the process already has the file open
/// (``OpenStoreFiles``), then open, validate and configure it (``SQLiteSchema``).
enum SQLiteStoreFile {
    /// Opens the store file at `fileURL`, read-write or, when it cannot be written,
    /// read-only.
    ///
    /// - Returns: The open connection; ``SQLiteConnection/isReadOnly`` says how it opened.
    /// - Throws: ``SQLiteStoreError``; the file is left untouched when it cannot be used.
    static func open(_ fileURL: URL) throws(SQLiteStoreError) -> SQLiteConnection {
        let path = fileURL.path(percentEncoded: false)
        guard fileURL.isFileURL else { throw .cannotOpen(path: fileURL.absoluteString, message: "not a file URL") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .cannotOpen(path: path, message: "it is a directory")
        }
        try createDirectory(fileURL.deletingLastPathComponent(), for: path)
        let mode = try SQLiteFileAccess.check(databasePath: path)
        // A log this process already has open was replayed when it was opened; reading the
        // file now would drop SQLite's locks on it (see OpenStoreFiles).
        if !OpenStoreFiles.isOpen(path) { try WriteAheadLogGuard.check(databasePath: path) }
        return try SQLiteSchema.open(path: path, mode: mode)
    }

    /// Creates the store's directory and the directories above it that are missing.
    private static func createDirectory(_ directory: URL, for path: String) throws(SQLiteStoreError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            let ancestor = SQLiteFileAccess.nearestExistingAncestor(of: directory)
            var ancestorIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &ancestorIsDirectory),
                ancestorIsDirectory.boolValue, SQLiteFileAccess.system(ancestor, W_OK | X_OK) == EACCES
            {
                throw .permissionDenied(
                    path: ancestor,
                    message: "the directory \(SQLiteFileAccess.displayPath(directory)) cannot be created in it "
                        + "(permission denied)"
                )
            }
            throw .cannotOpen(path: path, message: "cannot create its directory (\(error.localizedDescription))")
        }
    }
}
