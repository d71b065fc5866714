import Dispatch
public import Foundation
import Keel

/// ``OfflineStore`` on a SQLite file: the local copy of the remote's records and the
/// durable write queue, in the same file and the same transactions.
///
/// It opens and checks the file exactly as `SQLiteSync` does (write-ahead logging,
/// `synchronous=FULL`, integrity checks, never resetting a damaged file) and keeps its own
/// tables (`offline_*`) next to `SQLiteSync`'s, so one file can hold both. Every write is
/// one transaction, so a crash or a SIGKILL at any point leaves either the record and its
/// queued change, or neither. The server's changes stored with their cursor
/// (``store(_:versionCheck:)``) are the one write that commits without waiting for the disk:
/// a power cut may undo it whole, and the next pull reads it again.
///
/// ```swift
/// let local = try SQLiteOfflineStore(fileURL: .applicationSupportDirectory.appending(path: "cache.sqlite"))
/// let cache = CachingSync(remote: RESTSync(baseURL: api), local: local)
/// ```
///
/// `SQLiteOfflineStore` is `Sendable`; operations run one at a time on its own serial
/// queue, and several processes may share the file (SQLite's locks serialize them). A store
/// in memory (``inMemory(idAttribute:)``) has no disk to wait for: its operations run on
/// the calling thread, one at a time under the store's lock.
public final class SQLiteOfflineStore: OfflineStore {
    /// The database file, or `nil` for an in-memory store.
    ///
    /// ```swift
    /// local.fileURL?.lastPathComponent  // "cache.sqlite"
    /// ```
    public let fileURL: URL?

    /// The attribute that holds record ids.
    ///
    /// ```swift
    /// local.idAttribute  // "id"
    /// ```
    public let idAttribute: String

    /// Whether the store only reads: its file, its directory or its file system cannot be
    /// written by this process.
    ///
    /// Such a store opens read-only instead of failing, so the local copy can still be
    /// read; every write fails with `SyncError.storage(_:)`, changing nothing.
    ///
    /// ```swift
    /// if local.isReadOnly { print("Offline changes cannot be kept: the store is read-only") }
    /// ```
    public let isReadOnly: Bool

    private let path: String
    private let connection: Lock<SQLiteConnection?>
    /// The serial queue that file operations run on; `nil` in memory, where they run on
    /// the calling thread.
    private let queue: DispatchQueue?

    /// Opens the store at `fileURL`, creating the file, its directories and the tables if
    /// needed.
    ///
    /// ```swift
    /// let local = try SQLiteOfflineStore(fileURL: FileManager.default.temporaryDirectory.appending(path: "cache.sqlite"))
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: A file URL; `-wal` and `-shm` files appear next to it.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Throws: ``SQLiteStoreError``, as `SQLiteSync(fileURL:idAttribute:)`; the file is
    ///   left untouched when it cannot be used.
    /// - Complexity: O(*n*) in the size of the file, for the integrity checks.
    public init(fileURL: URL, idAttribute: String = "id") throws(SQLiteStoreError) {
        let path = fileURL.path(percentEncoded: false)
        let connection = try SQLiteStoreFile.open(fileURL)
        do {
            try OfflineSchema.create(in: connection)
        } catch {
            connection.close()
            throw error
        }
        self.isReadOnly = connection.isReadOnly
        self.fileURL = fileURL
        self.path = path
        self.idAttribute = idAttribute
        self.connection = Lock(connection)
        self.queue = DispatchQueue(label: "Keel.SQLiteOfflineStore")
    }

    private init(inMemoryWithIDAttribute idAttribute: String) throws(SQLiteStoreError) {
        let connection = try SQLiteSchema.open(path: ":memory:", mode: .readWrite)
        try OfflineSchema.create(in: connection)
        self.isReadOnly = false
        self.fileURL = nil
        self.path = ":memory:"
        self.idAttribute = idAttribute
        self.connection = Lock(connection)
        self.queue = nil
    }

    /// A store that lives in memory, for previews and tests.
    ///
    /// ```swift
    /// let cache = CachingSync(remote: rest, local: try SQLiteOfflineStore.inMemory())
    /// ```
    ///
    /// - Parameter idAttribute: The attribute that holds record ids.
    /// - Returns: An empty store.
    /// - Throws: ``SQLiteStoreError`` when SQLite cannot allocate the database.
    public static func inMemory(idAttribute: String = "id") throws(SQLiteStoreError) -> SQLiteOfflineStore {
        try SQLiteOfflineStore(inMemoryWithIDAttribute: idAttribute)
    }

    /// Closes the database; later operations fail with `SyncError.storage(_:)`.
    ///
    /// ```swift
    /// local.close()
    /// ```
    public func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    // MARK: - Running

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` when it writes), committing when it
    /// returns and rolling back when it throws: on the store's queue while the caller
    /// suspends, or, in memory, on the calling thread.
    ///
    /// A transaction that is not `durable` commits with `synchronous=NORMAL`: as atomic as
    /// the others, but its commit does not wait for the disk, so a power loss may undo it
    /// (whole) until the next durable commit or checkpoint syncs the log. Only data that can
    /// be read again from the server is written so.
    func transaction<T: Sendable>(
        writes: Bool,
        durable: Bool = true,
        _ body: @escaping @Sendable (OfflineTables) throws(SyncError) -> T
    ) async throws(SyncError) -> T {
        guard let queue else { return try transactionNow(writes: writes, durable: durable, body).get() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, SyncError>, Never>) in
            queue.async {
                continuation.resume(returning: self.transactionNow(writes: writes, durable: durable, body))
            }
        }
        return try result.get()
    }

    private func transactionNow<T: Sendable>(
        writes: Bool,
        durable: Bool,
        _ body: (OfflineTables) throws(SyncError) -> T
    ) -> Result<T, SyncError> {
        connection.withLock { connection -> Result<T, SyncError> in
            guard let connection else { return .failure(SQLiteSync.syncError(.closed(path: path))) }
            // SQLite changes the setting only between transactions. A connection whose setting
            // cannot be put back is closed (later operations fail with `.closed`) rather than
            // left committing without waiting for the disk.
            defer {
                if !durable, (try? connection.execute("PRAGMA synchronous=FULL")) == nil { connection.close() }
            }
            do throws(SQLiteStoreError) {
                if !durable { try connection.execute("PRAGMA synchronous=NORMAL") }
                try connection.execute(writes ? "BEGIN IMMEDIATE" : "BEGIN")
            } catch {
                return .failure(SQLiteSync.syncError(error))
            }
            do throws(SyncError) {
                let value = try body(OfflineTables(connection: connection, idAttribute: idAttribute))
                try Self.storing { () throws(SQLiteStoreError) in
                    try connection.execute(writes ? "COMMIT" : "ROLLBACK")
                }
                return .success(value)
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                return .failure(error)
            }
        }
    }

    /// Runs a read on the calling thread when the connection is free, instead of a trip to
    /// the store's queue and back (two thread switches, several times what a one-row read
    /// costs); `nil` when the connection is in use, the store is in memory or closed, the
    /// task is cancelled or the read fails, and the caller then takes the queue.
    func readInPlace<T: Sendable>(_ body: (OfflineTables) throws(SQLiteStoreError) -> T) -> T? {
        guard queue != nil, !Task.isCancelled else { return nil }
        let idAttribute = self.idAttribute
        let value = connection.withLockIfAvailable { connection -> T? in
            guard let connection else { return nil }
            return try? body(OfflineTables(connection: connection, idAttribute: idAttribute))
        }
        return value ?? nil
    }

    /// Runs SQLite work, reporting its failure as the `Sync` API does.
    static func storing<T>(_ body: () throws(SQLiteStoreError) -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteSync.syncError(error)
        }
    }

    /// Runs SQL between operations (tests inspect the file with it).
    func execute(_ sql: String) throws(SQLiteStoreError) -> [[String?]] {
        try connection.withLock { (connection) throws(SQLiteStoreError) -> [[String?]] in
            guard let connection else { throw .closed(path: self.path) }
            return try connection.rows(sql)
        }
    }
}
