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
/// blocking the cooperative thread pool. A read (one record, what a detail screen loads, or
/// a list, what a query opens with) is answered on the calling thread instead when the
/// connection is free, without the two thread switches of a trip through the queue and
/// without waiting for another operation: the caller spends the read's time itself (about a
/// microsecond a record for a list) and builds the models from values made on its own
/// thread. A read that finds the connection in use takes the queue. Writes take the queue,
/// so the caller never waits for a disk sync, unless the store was opened with
/// `writesOnCallingThread` (below). A store in memory
/// (``inMemory(idAttribute:)``) has no disk to wait for: its operations run on the calling
/// thread, one at a time under the store's lock, without the two thread switches of a trip
/// through the queue.
///
/// ### Writes on the calling thread
///
/// A store opened with `writesOnCallingThread: true` answers a write (and a
/// ``performInTransaction(_:links:)``) on the calling thread too when the connection is
/// free, as it answers reads: no trip to the queue and back (two thread switches, and from
/// the main actor a turn of its run loop), which is most of what a durable create costs
/// beyond SQLite's own work. The caller then blocks until the commit is on disk: the
/// `fdatasync` takes 70–90 µs on a fast SSD and milliseconds on a slow disk, against the
/// 8.3 ms of a 120 Hz frame. Choose it for work that is not the user interface's: a
/// background task, an import job, a command-line tool, a server. Keep the default for
/// stores written from the main actor.
///
/// Durability and answers are the same either way: the write is acknowledged only after its
/// commit, each operation is one transaction, and changes are reported to other stores and
/// processes as before. A write that finds the connection in use, a closed store or a
/// cancelled task takes the queue, exactly as with the default. ``transaction(_:)`` runs its
/// closure on the queue either way.
///
/// ```swift
/// let importer = try SQLiteSync(fileURL: url, writesOnCallingThread: true)
/// let notes = Collection<Note>(url: "/notes", sync: importer)
/// for row in rows { try await notes.create(row) }  // each committed on this thread
/// ```
///
/// ### Safe concurrent writes
///
/// Every record has a version: 1 when created, one more with each `update` or `patch`. A
/// response with one record carries it as its `ETag` (`"3"`), and `update`, `patch` and
/// `delete` with `If-Match: "3"` change the record only while it is still at version 3;
/// otherwise they change nothing and fail with `SyncError.storeRefused(_:)`, whose reason is
/// `.versionMismatch(current:)` with the current version and whose `status` is 412, as a
/// REST server's would be. That is a compare-and-set, from any number of tasks,
/// stores or processes on one file: of two writers that read version 3, exactly one wins,
/// and the other reads again and retries.
///
/// ```swift
/// /// Adds one if nobody changed the counter since it was read; `false` when somebody did.
/// func incrementIfUnchanged(_ counter: Note) async throws -> Bool {
///     let etag = try await counter.fetch().headers["etag"] ?? "*"
///     let count = counter["count"]?.intValue ?? 0
///     do {
///         let ifUnchanged = SyncOptions(headers: ["If-Match": etag])
///         try await counter.save(["count": .int(count + 1)], wait: true, patch: true, options: ifUnchanged)
///         return true
///     } catch {
///         guard error.status == 412 else { throw error }
///         return false  // another writer changed it first: read it again
///     }
/// }
/// while try await !incrementIfUnchanged(counter) {}
/// ```
///
/// Several records change all or nothing in ``transaction(_:)``.
///
/// ### Damaged records
///
/// A record whose stored text is not a JSON object is skipped by list reads (the response
/// says how many in ``damagedRecordsHeader``) and fails a read of its own with
/// ``SQLiteStoreError/damagedRecord(_:)``; the other records stay usable.
/// ``damagedRecords()`` finds them, ``removeRecord(at:)`` and ``repairRecord(at:with:)``
/// fix them.
///
/// ### Errors
///
/// Opening throws ``SQLiteStoreError`` for a damaged or foreign file, a file written by a
/// newer schema, a path that cannot be used, or permissions that forbid reading it or
/// creating it (``SQLiteStoreError/permissionDenied(path:message:)``); the file is never
/// reset. During ``perform(_:)``, storage failures (a full disk, an I/O error) are thrown as
/// `SyncError.storage(_:)` with the store error's description, and the operation is
/// rolled back.
///
/// ### Read-only stores
///
/// A file this process can read but not write (its permission bits, its directory's, a
/// read-only file system, an immutable file) opens read-only: ``isReadOnly`` is `true`,
/// reads work, and every write fails with `SyncError.storage(_:)` whose message is
/// ``SQLiteStoreError/readOnly(path:)``'s, changing nothing. Changes that another process
/// commits are seen, except when the directory cannot be written either and no writer had
/// the file open (it has no `-wal` file): SQLite then cannot create the `-shm` index that
/// reading needs, so the file is read as immutable, as it was when the store opened.
public final class SQLiteSync: Sync {
    /// The schema version this version of the store reads and writes.
    ///
    /// A database with a higher version fails to open with
    /// ``SQLiteStoreError/newerSchema(found:supported:)``.
    ///
    /// ```swift
    /// SQLiteSync.schemaVersion  // 5
    /// ```
    public static var schemaVersion: Int { SQLiteSchema.version }

    /// The response header that says how many damaged records a list skipped.
    ///
    /// A list read answers the records that can be read; when some are damaged (see
    /// ``SQLiteDamagedRecord``), the response carries this header with their number, and
    /// ``damagedRecords()`` says which they are.
    ///
    /// ```swift
    /// try await notes.fetch()
    /// if let count = notes.lastResponse?.headers[SQLiteSync.damagedRecordsHeader] {
    ///     print("\(count) damaged notes were skipped")
    /// }
    /// ```
    public static let damagedRecordsHeader = "x-keel-damaged-records"

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

    /// Whether the store only reads: its file, its directory or its file system cannot be
    /// written by this process.
    ///
    /// Such a store opens read-only instead of failing: reads work, and every write fails
    /// with `SyncError.storage(_:)` whose message is ``SQLiteStoreError/readOnly(path:)``'s,
    /// changing nothing.
    ///
    /// ```swift
    /// if store.isReadOnly { print("Changes cannot be saved: the store is read-only") }
    /// ```
    public let isReadOnly: Bool

    /// Whether a write is answered on the calling thread when the connection is free,
    /// instead of on the store's queue (see "Writes on the calling thread" above).
    ///
    /// Always `false` for a store in memory, whose operations run on the calling thread
    /// anyway.
    ///
    /// ```swift
    /// let importer = try SQLiteSync(fileURL: url, writesOnCallingThread: true)
    /// importer.writesOnCallingThread  // true
    /// ```
    public let writesOnCallingThread: Bool

    private let path: String
    let connection: Lock<SQLiteConnection?>
    /// The serial queue that file operations run on; `nil` in memory, where they run on
    /// the calling thread.
    let queue: DispatchQueue?
    /// Runs inside each write transaction just before COMMIT; only tests set it, to stop a
    /// process at the worst moment.
    let beforeCommit: (@Sendable (SyncRequest) -> Void)?

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
    /// A store for an import job or a command-line tool, whose writes need not leave the
    /// calling thread:
    ///
    /// ```swift
    /// let importer = try SQLiteSync(fileURL: url, writesOnCallingThread: true)
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: A file URL for the database; `-wal` and `-shm` files appear next to it.
    ///   - idAttribute: The attribute that holds record ids.
    ///   - writesOnCallingThread: Whether a write runs on the calling thread when the
    ///     connection is free, which then blocks for the disk sync (see "Writes on the
    ///     calling thread" above); `false`, the default, runs writes on the store's queue.
    /// - Throws: ``SQLiteStoreError``; the file is left untouched when it cannot be used.
    /// - Complexity: O(*n*) in the size of the database and of its log, for the integrity
    ///   checks.
    public convenience init(
        fileURL: URL,
        idAttribute: String = "id",
        writesOnCallingThread: Bool = false
    ) throws(SQLiteStoreError) {
        try self.init(
            fileURL: fileURL,
            idAttribute: idAttribute,
            writesOnCallingThread: writesOnCallingThread,
            beforeCommit: nil
        )
    }

    /// Opens a store, with a hook that runs inside each write transaction (for tests).
    init(
        fileURL: URL,
        idAttribute: String = "id",
        writesOnCallingThread: Bool = false,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SQLiteStoreError) {
        let path = fileURL.path(percentEncoded: false)
        let connection = try SQLiteStoreFile.open(fileURL)
        self.isReadOnly = connection.isReadOnly
        self.fileURL = fileURL
        self.path = path
        self.idAttribute = idAttribute
        self.writesOnCallingThread = writesOnCallingThread
        self.connection = Lock(connection)
        self.queue = DispatchQueue(label: "Keel.SQLiteSync")
        self.beforeCommit = beforeCommit
    }

    private init(inMemoryWithIDAttribute idAttribute: String) throws(SQLiteStoreError) {
        let connection = try SQLiteSchema.open(path: ":memory:", mode: .readWrite)
        self.isReadOnly = false
        self.fileURL = nil
        self.path = ":memory:"
        self.idAttribute = idAttribute
        self.writesOnCallingThread = false
        self.connection = Lock(connection)
        self.queue = nil
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
    /// A response with one record carries its version as its `ETag` (`"3"`); send it back
    /// as `If-Match` with `update`, `patch` or `delete` to change the record only if nobody
    /// changed it since (see "Safe concurrent writes" above).
    ///
    /// - Parameter request: The operation.
    /// - Returns: The record or list, with REST status codes (201 for create, 204 for delete).
    /// - Throws: `SyncError`: 404 for missing records, 400 for a body that is not an
    ///   object, 412 when `If-Match` names another version, 422 for a duplicate id,
    ///   `SyncError.cancelled` when the task is cancelled before the operation starts,
    ///   `SyncError.unencodableBody(_:)` for a record that cannot be written as JSON, and
    ///   `SyncError.storage(_:)` for storage failures.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if let answer = readInPlace(request) ?? writeInPlace(request) { return try answer.get() }
        let idAttribute = self.idAttribute
        let beforeCommit = self.beforeCommit
        let result = await withConnection { connection in
            Result { () throws(SyncError) -> SyncResponse in
                try connection.perform(request, idAttribute: idAttribute, beforeCommit: beforeCommit)
            }
        }
        switch result {
        case .success(let outcome): return try outcome.get()
        case .failure(.cancelled): throw .cancelled
        case .failure(.store(let error)): throw Self.syncError(error)
        }
    }

    /// Why ``withConnection(_:)`` did not run its work.
    enum Unavailable: Error {
        /// The task was cancelled before the work started.
        case cancelled
        /// The store is closed.
        case store(SQLiteStoreError)
    }

    /// Runs `body` with the open connection, one operation at a time: on the store's queue
    /// while the caller suspends, or, in memory, on the calling thread under the lock.
    ///
    /// A task cancelled before its turn comes runs nothing and gets `.cancelled`.
    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) -> T
    ) async -> Result<T, Unavailable> {
        if Task.isCancelled { return .failure(.cancelled) }
        guard let queue else { return run(body, unless: nil) }
        let cancellation = CancellationFlag()
        return await withTaskCancellationHandler {
            // Resumed exactly once, by the block below, which always runs.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, Unavailable>, Never>) in
                queue.async { continuation.resume(returning: self.run(body, unless: cancellation)) }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `body` under the lock with the open connection, unless `cancellation` was set
    /// while the operation waited for its turn or the store is closed.
    private func run<T: Sendable>(
        _ body: @Sendable (SQLiteConnection) -> T,
        unless cancellation: CancellationFlag?
    ) -> Result<T, Unavailable> {
        connection.withLock { (connection) -> Result<T, Unavailable> in
            // A task cancelled while it waited for its turn changes nothing.
            if cancellation?.isCancelled == true { return .failure(.cancelled) }
            guard let connection else { return .failure(.store(.closed(path: self.path))) }
            return .success(body(connection))
        }
    }

    /// The records of one collection, in insertion order, read directly.
    ///
    /// Damaged records are skipped; ``damagedRecords()`` lists them.
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
            return try connection.records(in: key, idAttribute: idAttribute).records
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
