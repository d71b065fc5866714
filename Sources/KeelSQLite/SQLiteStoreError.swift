public import Keel

/// Why a SQLite store could not be opened or could not complete an operation.
///
/// ``SQLiteSync/init(fileURL:idAttribute:writesOnCallingThread:)`` throws these. A store never repairs, resets or
/// overwrites a file it cannot use: when opening fails, the file is left exactly as it was,
/// so the user's data can still be recovered.
///
/// ```swift
/// do {
///     store = try SQLiteSync(fileURL: databaseURL)
/// } catch .newerSchema(let found, let supported) {
///     showAlert("This database was written by a newer version of the app (\(found) > \(supported)).")
/// } catch .corrupt(let path, _), .notADatabase(let path) {
///     offerRestoreFromBackup(path)
/// } catch {
///     showAlert(error.description)
/// }
/// ```
///
/// During ``SQLiteSync/perform(_:)`` the same failures reach the `Sync` API as
/// `SyncError.storage(_:)` whose message is this error's ``description``.
public enum SQLiteStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or its directory cannot be created or opened (a directory in the way,
    /// a path that is not valid).
    case cannotOpen(path: String, message: String)
    /// The operating system's permissions forbid what the store needs: `path` is the file
    /// or directory, and `message` says what is missing, such as "the file cannot be written
    /// (permission denied)". The store needs to read its file, and to create a new file (and
    /// its `-wal` and `-shm` files) it needs to write its directory; a file it can read but
    /// not write opens read-only instead (see ``readOnly(path:)``).
    case permissionDenied(path: String, message: String)
    /// The file exists but is not a SQLite database (for example a text file).
    case notADatabase(path: String)
    /// The file is a SQLite database, but it is damaged (truncated, overwritten, or failing
    /// its integrity check).
    case corrupt(path: String, message: String)
    /// The database's write-ahead log (its `-wal` file) is damaged so that SQLite would
    /// silently drop transactions that were committed after the damage.
    ///
    /// The store was not opened, so nothing replayed, checkpointed or deleted the log: the
    /// database and its log are left byte for byte as they were, and a copy of both is kept
    /// in the directory `copy`, next to the database. Restoring the store from a backup is
    /// safe. Opening the store with any SQLite tool keeps only the changes before the damage
    /// (and makes that permanent), so keep the copy first. `message` says which frame is
    /// damaged and how many commits follow it.
    case damagedLog(path: String, copy: String, message: String)
    /// The database was written by a newer version of the store, with a schema this version
    /// does not know. It is left untouched.
    case newerSchema(found: Int, supported: Int)
    /// The file is a SQLite database that belongs to something else, not a Keel store.
    case foreignDatabase(path: String)
    /// The disk (or the database's size limit) is full; the operation was rolled back.
    case diskFull(path: String)
    /// The store is read-only: its file, its directory or its file system cannot be written,
    /// so it was opened read-only (`SQLiteSync.isReadOnly`). Reads work; a write fails with
    /// this error and changes nothing. Opening fails with it when such a file would first
    /// need its tables created or migrated by this version.
    case readOnly(path: String)
    /// The operating system reported an I/O error while reading or writing.
    case ioError(path: String, message: String)
    /// Another connection held the database locked for longer than the busy timeout.
    case busy(path: String)
    /// The store was closed with ``SQLiteSync/close()``.
    case closed(path: String)
    /// The task was cancelled before the operation started; nothing was written.
    case cancelled(path: String)
    /// Any other SQLite failure, with its result code and message.
    case sqlite(path: String, code: Int32, message: String)
    /// A record cannot be written as JSON, such as one nested deeper than
    /// `JSONValue.maximumParsingDepth` levels; nothing was written. ``SQLiteSync/perform(_:)``
    /// reports it as `SyncError.unencodableBody(_:)`.
    case unencodableRecord(JSONWriteError)
    /// A stored record is damaged (its text is not a JSON object); the report names the file,
    /// the collection and the id. Reads of lists skip it; see ``SQLiteDamagedRecord``.
    case damagedRecord(SQLiteDamagedRecord)
    /// The store has no record at `record` (such as `/notes/3`).
    case recordNotFound(path: String, record: String)
    /// A record already exists at `record`, so it cannot be created; nothing was written.
    case recordExists(path: String, record: String)
    /// A write was conditional on the record's version, and another writer changed the
    /// record first: it is at version `current`, not `expected`. Nothing was written; read
    /// the record again and retry.
    case versionMismatch(path: String, record: String, expected: Int, current: Int)
    /// SQLite's library cannot be used, so no store can open: on Linux, KeelSQLite loads the
    /// system's `libsqlite3.so.0` (package `libsqlite3-0` on Debian and Ubuntu, `sqlite-libs`
    /// on Fedora) when the first store opens, and `message` says why that failed (the
    /// library is missing, lacks a function, or is older than SQLite 3.22.0).
    case libraryUnavailable(message: String)

    /// A sentence describing the failure and what became of the file.
    ///
    /// ```swift
    /// print(SQLiteStoreError.diskFull(path: "/tmp/notes.sqlite"))
    /// // The disk is full: /tmp/notes.sqlite (SQLITE_FULL); nothing was written
    /// ```
    public var description: String {
        switch self {
        case .cannotOpen(let path, let message):
            return "Cannot open the store at \(path): \(message)"
        case .notADatabase(let path):
            return "\(path) is not a SQLite database (SQLITE_NOTADB); the file was left untouched"
        case .corrupt(let path, let message):
            return "The database at \(path) is damaged (SQLITE_CORRUPT): \(message); the file was left untouched"
        case .damagedLog(let path, let copy, let message):
            return "The write-ahead log of \(path) is damaged: \(message). The store was not opened and its files "
                + "were left untouched; a copy of the database and its log is in \(copy). Restore the store from a "
                + "backup, or keep the copy: opening the store with another SQLite tool keeps only the changes "
                + "made before the damage"
        case .newerSchema(let found, let supported):
            return "The database was written by a newer version of the store (schema \(found); "
                + "this version supports up to \(supported)); the file was left untouched"
        case .foreignDatabase(let path):
            return "\(path) is a SQLite database of another application, not a Keel store; the file was left untouched"
        case .diskFull(let path):
            return "The disk is full: \(path) (SQLITE_FULL); nothing was written"
        case .readOnly(let path):
            return "The store at \(path) is read-only (its file, its directory or its file system cannot be "
                + "written; SQLITE_READONLY); nothing was written"
        case .ioError(let path, let message):
            return "A disk I/O error occurred at \(path) (SQLITE_IOERR): \(message)"
        case .busy(let path):
            return "The database at \(path) is locked by another connection (SQLITE_BUSY)"
        case .closed(let path):
            return "The store at \(path) is closed"
        case .cancelled(let path):
            return "The operation on the store at \(path) was cancelled before it started; nothing was written"
        case .sqlite(let path, let code, let message):
            return "SQLite error \(code) at \(path): \(message)"
        case .unencodableRecord(let error):
            return "The record cannot be stored: \(error); nothing was written"
        case .permissionDenied(let path, let message):
            return "The store cannot use \(path): \(message)"
        case .damagedRecord(let damaged):
            return damaged.description
        case .recordNotFound(let path, let record):
            return "The store at \(path) has no record \(record)"
        case .recordExists(let path, let record):
            return "The store at \(path) already has a record \(record); nothing was written"
        case .versionMismatch(let path, let record, let expected, let current):
            return "The record \(record) in the store at \(path) was changed by another writer: it is at version "
                + "\(current), not \(expected); nothing was written"
        case .libraryUnavailable(let message):
            return "SQLite's library cannot be loaded: \(message). KeelSQLite uses the system's libsqlite3.so.0 "
                + "(package libsqlite3-0 on Debian and Ubuntu, sqlite-libs on Fedora); install it"
        }
    }
}
