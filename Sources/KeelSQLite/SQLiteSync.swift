import Dispatch
public import Foundation
public import Keel
import Synchronization

/// A `Sync` backend that keeps records in a local SQLite database file.
///
/// It behaves like a small REST server, exactly as `InMemorySync` does (both follow
/// `RecordStore.respond(to:idAttribute:)`), but durably: any
/// model or collection URL works without a schema. `create` on `/notes` stores a record and
/// assigns the next integer id; `read` of `/notes` lists the records in insertion order
/// (filtered by query parameters that equal attribute values) and `read` of `/notes/1`
/// returns one or fails with 404; `update` replaces (or creates) a record; `patch` merges
/// (404 when missing); `delete` removes it (204, or 404). Creating a record whose id is
/// taken fails with 422 and `{"id": ["has already been taken"]}`.
///
/// ```swift
/// import Keel
/// import KeelSQLite
///
/// let store = try SQLiteSync(fileURL: .applicationSupportDirectory.appending(path: "notes.sqlite"))
/// let notes = Collection<Note>(url: "/notes", sync: store)
/// let note = try await notes.create(["title": "Groceries"])   // id 1, on disk
/// try await note.save(["done": true], patch: true)
/// ```
///
/// ### Durability
///
/// The database uses write-ahead logging with `synchronous=FULL`, and each operation is one
/// transaction: when ``perform(_:)`` returns, the change is on disk, and a crash or a kill
/// in the middle of a write loses nothing that was acknowledged and never leaves a
/// half-written record.
///
/// ### Concurrency
///
/// `SQLiteSync` is `Sendable`: share one store between actors and tasks. Operations run one
/// at a time on the store's own serial queue, so waiting callers suspend instead of
/// blocking the cooperative thread pool.
///
/// ### Errors
///
/// Opening throws ``SQLiteStoreError`` for a damaged or foreign file, a file written by a
/// newer schema, or a path that cannot be used; the file is never reset. During
/// ``perform(_:)``, storage failures (a full disk, an I/O error) are thrown as
/// `SyncError.storage(_:)` with the store error's description, and the operation is
/// rolled back.
public final class SQLiteSync: Sync {
    /// The schema version this version of the store reads and writes.
    ///
    /// A database with a higher version fails to open with
    /// ``SQLiteStoreError/newerSchema(found:supported:)``.
    ///
    /// ```swift
    /// SQLiteSync.schemaVersion  // 1
    /// ```
    public static var schemaVersion: Int { SQLiteSchema.version }

    /// The database file, or `nil` for an in-memory store.
    ///
    /// ```swift
    /// store.fileURL?.lastPathComponent  // "notes.sqlite"
    /// ```
    public let fileURL: URL?

    /// The attribute that holds record ids.
    ///
    /// ```swift
    /// store.idAttribute  // "id"
    /// ```
    public let idAttribute: String

    private let path: String
    private let connection: Lock<SQLiteConnection?>
    private let queue: DispatchQueue
    /// Runs inside each write transaction just before COMMIT; only tests set it, to stop a
    /// process at the worst moment.
    private let beforeCommit: (@Sendable (SyncRequest) -> Void)?

    // MARK: - Opening

    /// Opens the store at `fileURL`, creating the file and its directories if needed.
    ///
    /// The file is validated before anything is written to it: its write-ahead log, if a
    /// crash left one, must not be damaged in a way that would make SQLite drop committed
    /// transactions (see ``SQLiteStoreError/damagedLog(path:copy:message:)``); the file must
    /// be a SQLite database, pass SQLite's `quick_check`, belong to Keel (or be new) and have a schema
    /// version this build supports. Then write-ahead logging and full synchronous commits
    /// are turned on and, for a new file, the schema is created.
    ///
    /// ```swift
    /// let url = FileManager.default.temporaryDirectory.appending(path: "notes.sqlite")
    /// let store = try SQLiteSync(fileURL: url)
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: A file URL for the database; `-wal` and `-shm` files appear next to it.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Throws: ``SQLiteStoreError``; the file is left untouched when it cannot be used.
    /// - Complexity: O(*n*) in the size of the database and of its log, for the integrity
    ///   checks.
    public convenience init(fileURL: URL, idAttribute: String = "id") throws(SQLiteStoreError) {
        try self.init(fileURL: fileURL, idAttribute: idAttribute, beforeCommit: nil)
    }

    /// Opens a store, with a hook that runs inside each write transaction (for tests).
    init(
        fileURL: URL,
        idAttribute: String = "id",
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SQLiteStoreError) {
        let path = fileURL.path(percentEncoded: false)
        guard fileURL.isFileURL else { throw .cannotOpen(path: fileURL.absoluteString, message: "not a file URL") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .cannotOpen(path: path, message: "it is a directory")
        }
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
        } catch {
            throw .cannotOpen(path: path, message: "cannot create its directory (\(error.localizedDescription))")
        }
        try WriteAheadLogGuard.check(databasePath: path)
        let connection = try SQLiteSchema.open(path: path, inMemory: false)
        self.fileURL = fileURL
        self.path = path
        self.idAttribute = idAttribute
        self.connection = Lock(connection)
        self.queue = DispatchQueue(label: "Keel.SQLiteSync")
        self.beforeCommit = beforeCommit
    }

    private init(inMemoryWithIDAttribute idAttribute: String) throws(SQLiteStoreError) {
        let connection = try SQLiteSchema.open(path: ":memory:", inMemory: true)
        self.fileURL = nil
        self.path = ":memory:"
        self.idAttribute = idAttribute
        self.connection = Lock(connection)
        self.queue = DispatchQueue(label: "Keel.SQLiteSync")
        self.beforeCommit = nil
    }

    /// Opens a store that lives in memory and disappears with it: for previews and tests
    /// that want SQLite's behaviour without a file.
    ///
    /// ```swift
    /// let store = try SQLiteSync.inMemory()
    /// ```
    ///
    /// - Parameter idAttribute: The attribute that holds record ids.
    /// - Returns: An empty store.
    /// - Throws: ``SQLiteStoreError`` when SQLite cannot allocate the database.
    public static func inMemory(idAttribute: String = "id") throws(SQLiteStoreError) -> SQLiteSync {
        try SQLiteSync(inMemoryWithIDAttribute: idAttribute)
    }

    /// Closes the database; later operations fail with ``SQLiteStoreError/closed(path:)``.
    ///
    /// Waits for an operation in progress. Closing is optional: a store closes its file
    /// when it is deallocated.
    ///
    /// ```swift
    /// store.close()
    /// ```
    public func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    /// Whether ``close()`` has been called.
    ///
    /// ```swift
    /// store.isClosed  // false
    /// ```
    public var isClosed: Bool {
        connection.withLock { $0 == nil }
    }

    // MARK: - Operations

    /// Performs one operation in its own transaction.
    ///
    /// ```swift
    /// let response = try await store.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The record or list, with REST status codes (201 for create, 204 for delete).
    /// - Throws: `SyncError`: 404 for missing records, 400 for a body that is not an
    ///   object, 422 for a duplicate id, `SyncError.cancelled` when the task is cancelled
    ///   before the operation starts, `SyncError.unencodableBody(_:)` for a record that
    ///   cannot be written as JSON, and `SyncError.storage(_:)` for storage failures.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if Task.isCancelled { throw .cancelled }
        let cancellation = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<SyncResponse, SyncError>, Never>) in
                queue.async {
                    continuation.resume(returning: self.performNow(request, cancellation: cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    private func performNow(_ request: SyncRequest, cancellation: CancellationFlag) -> Result<SyncResponse, SyncError> {
        connection.withLock { connection in
            // A task cancelled while it waited for its turn changes nothing.
            if cancellation.isCancelled { return .failure(.cancelled) }
            guard let connection else { return .failure(Self.syncError(.closed(path: path))) }
            return Result { () throws(SyncError) -> SyncResponse in
                try connection.perform(request, idAttribute: idAttribute, beforeCommit: beforeCommit)
            }
        }
    }

    /// The records of one collection, in insertion order, read directly.
    ///
    /// > Note: It runs on the calling thread and waits for an operation in progress; from
    /// > async code, a `read` through ``perform(_:)`` suspends instead.
    ///
    /// ```swift
    /// try store.records(at: "/notes").count
    /// ```
    ///
    /// - Parameter path: The collection path, such as `/notes`.
    /// - Returns: The stored attributes; empty for an unknown collection.
    /// - Throws: ``SQLiteStoreError`` when the database cannot be read.
    public func records(at path: String) throws(SQLiteStoreError) -> [Attributes] {
        let key = ResourcePath(URL(string: path) ?? URL(filePath: path)).path
        return try connection.withLock { (connection) throws(SQLiteStoreError) -> [Attributes] in
            guard let connection else { throw .closed(path: self.path) }
            return try connection.records(in: key)
        }
    }

    /// Runs SQL on the connection between operations; tests use it to inspect the file and
    /// to simulate a full disk (`PRAGMA max_page_count`).
    func execute(_ sql: String) throws(SQLiteStoreError) -> [[String?]] {
        try connection.withLock { (connection) throws(SQLiteStoreError) -> [[String?]] in
            guard let connection else { throw .closed(path: self.path) }
            return try connection.rows(sql)
        }
    }

    /// The `SyncError` the `Sync` API reports for a storage failure.
    static func syncError(_ error: SQLiteStoreError) -> SyncError {
        if case .unencodableRecord(let writeError) = error { return .unencodableBody(writeError) }
        return .storage(error.description)
    }
}

/// Set when the task that queued an operation is cancelled before the operation starts.
private final class CancellationFlag: Sendable {
    private let flag = Atomic(false)

    var isCancelled: Bool { flag.load(ordering: .acquiring) }

    func cancel() { flag.store(true, ordering: .releasing) }
}
