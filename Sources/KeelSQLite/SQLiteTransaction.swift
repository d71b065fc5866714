import Foundation
public import Keel

extension SQLiteSync {
    /// Runs several reads and writes as one transaction: all of its changes are stored, or
    /// none.
    ///
    /// `body` runs on the store's queue while the store holds the database's write lock, so
    /// no other task, store or process changes the records in between: a read followed by
    /// a write is atomic. When `body` returns, its changes are committed (and on disk, as
    /// with ``perform(_:)``); when it throws, they are rolled back and its error is thrown
    /// again. An operation that fails (such as a `patch` of a missing record) changes
    /// nothing by itself, so `body` may catch its error and go on.
    ///
    /// ```swift
    /// let archived = try await store.transaction { tx in
    ///     let item = try tx.record(at: "/inbox/7") ?? [:]
    ///     try tx.delete(at: "/inbox/7")  // throws .recordNotFound when it is gone: nothing changes
    ///     return try tx.create(item, in: "/archive")
    /// }
    /// ```
    ///
    /// Keep `body` short and synchronous: other operations on the file wait for it. It must
    /// not use the store itself (that would wait forever); use `tx` instead.
    ///
    /// - Parameter body: The work; `tx` is valid only while it runs.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after rolling back (the operations of `tx` throw
    ///   ``SQLiteStoreError``); ``SQLiteStoreError`` when the transaction cannot begin or
    ///   commit (then nothing was stored), or ``SQLiteStoreError/cancelled(path:)`` when the
    ///   task was cancelled before it began.
    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (SQLiteTransaction) throws -> Result
    ) async throws -> Result {
        let idAttribute = self.idAttribute
        let outcome = try await storeOperation {
            (connection) throws(SQLiteStoreError) -> Swift.Result<Result, any Error> in
            try connection.begin(immediate: true)
            let transaction = SQLiteTransaction(connection: connection, idAttribute: idAttribute)
            defer { transaction.end() }
            do {
                let result = try body(transaction)
                try connection.commit()
                return .success(result)
            } catch {
                if connection.isInTransaction { try? connection.rollback() }
                if let storeError = error as? SQLiteStoreError { throw storeError }
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

/// The operations of one ``SQLiteSync/transaction(_:)``: reads and REST-style writes of
/// records, with the same rules as ``SQLiteSync/perform(_:)``.
///
/// Writes can be conditional on a record's version (see ``version(at:)``): with
/// `ifVersion`, a write changes nothing and throws
/// ``SQLiteStoreError/versionMismatch(path:record:expected:current:)`` when the record is at
/// another version.
///
/// ```swift
/// try await store.transaction { tx in
///     let list = try tx.create(["name": "Groceries"], in: "/lists")
///     try tx.create(["list_id": list["id"] ?? nil, "title": "Milk"], in: "/items")
/// }
/// ```
///
/// A transaction is valid only inside the closure it was given to; afterwards its
/// operations throw ``SQLiteStoreError/closed(path:)``.
public final class SQLiteTransaction {
    private let connection: SQLiteConnection
    private let idAttribute: String
    private var isActive = true

    init(connection: SQLiteConnection, idAttribute: String) {
        self.connection = connection
        self.idAttribute = idAttribute
    }

    func end() { isActive = false }

    // MARK: - Reads

    /// One record, or `nil` when there is none.
    ///
    /// ```swift
    /// let note = try tx.record(at: "/notes/1")
    /// ```
    ///
    /// - Parameter path: The record's path, such as `/notes/1`.
    /// - Returns: Its attributes.
    /// - Throws: ``SQLiteStoreError/damagedRecord(_:)`` for a damaged record, and
    ///   ``SQLiteStoreError`` when the store fails.
    public func record(at path: String) throws(SQLiteStoreError) -> Attributes? {
        let (collection, id) = try address(of: path)
        return try connection.record(id, in: collection, idAttribute: idAttribute)
    }

    /// The records of a collection in insertion order; damaged records are skipped.
    ///
    /// ```swift
    /// let notes = try tx.records(at: "/notes")
    /// ```
    ///
    /// - Parameter collection: The collection path, such as `/notes`.
    /// - Returns: The records; empty for an unknown collection.
    /// - Throws: ``SQLiteStoreError`` when the store fails.
    public func records(at collection: String) throws(SQLiteStoreError) -> [Attributes] {
        try requireActive()
        let key = ResourcePath(URL(string: collection) ?? URL(filePath: collection)).path
        return try connection.records(in: key, idAttribute: idAttribute).records
    }

    /// A record's version: 1 when it was created, one more with each update.
    ///
    /// ```swift
    /// let version = try tx.version(at: "/notes/1")  // 3
    /// ```
    ///
    /// - Parameter path: The record's path.
    /// - Returns: The version, or `nil` when there is no such record.
    /// - Throws: ``SQLiteStoreError`` when the store fails.
    public func version(at path: String) throws(SQLiteStoreError) -> Int? {
        let (collection, id) = try address(of: path)
        return try connection.version(of: id, in: collection)
    }

    // MARK: - Writes

    /// Creates a record; one without an id gets the collection's next integer id.
    ///
    /// ```swift
    /// let note = try tx.create(["title": "Hi"], in: "/notes")
    /// note["id"]  // 1
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The record.
    ///   - collection: The collection path.
    /// - Returns: The record as stored, with its id.
    /// - Throws: ``SQLiteStoreError/recordExists(path:record:)`` when its id is taken.
    @discardableResult
    public func create(_ attributes: Attributes, in collection: String) throws(SQLiteStoreError) -> Attributes {
        try send(.create, collection, body: attributes, ifVersion: nil).body?.objectValue ?? attributes
    }

    /// Replaces a record's attributes (keeping its id), or creates it at this path.
    ///
    /// ```swift
    /// try tx.update(["title": "Bye"], at: "/notes/1", ifVersion: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The new attributes.
    ///   - path: The record's path.
    ///   - ifVersion: Write only if the record is at this version.
    /// - Returns: The record as stored.
    /// - Throws: ``SQLiteStoreError/versionMismatch(path:record:expected:current:)`` and
    ///   ``SQLiteStoreError/recordNotFound(path:record:)`` when `ifVersion` does not match.
    @discardableResult
    public func update(_ attributes: Attributes, at path: String, ifVersion: Int? = nil) throws(SQLiteStoreError)
        -> Attributes
    {
        try send(.update, path, body: attributes, ifVersion: ifVersion).body?.objectValue ?? attributes
    }

    /// Merges attributes into a record.
    ///
    /// ```swift
    /// try tx.patch(["done": true], at: "/notes/1")
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes to change.
    ///   - path: The record's path.
    ///   - ifVersion: Write only if the record is at this version.
    /// - Returns: The whole record as stored.
    /// - Throws: ``SQLiteStoreError/recordNotFound(path:record:)`` when there is no such
    ///   record, ``SQLiteStoreError/versionMismatch(path:record:expected:current:)``.
    @discardableResult
    public func patch(_ attributes: Attributes, at path: String, ifVersion: Int? = nil) throws(SQLiteStoreError)
        -> Attributes
    {
        try send(.patch, path, body: attributes, ifVersion: ifVersion).body?.objectValue ?? attributes
    }

    /// Deletes a record.
    ///
    /// ```swift
    /// try tx.delete(at: "/notes/1")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The record's path.
    ///   - ifVersion: Delete only if the record is at this version.
    /// - Throws: ``SQLiteStoreError/recordNotFound(path:record:)`` when there is no such
    ///   record, ``SQLiteStoreError/versionMismatch(path:record:expected:current:)``.
    public func delete(at path: String, ifVersion: Int? = nil) throws(SQLiteStoreError) {
        _ = try send(.delete, path, body: nil, ifVersion: ifVersion)
    }

    // MARK: - Running operations

    private func requireActive() throws(SQLiteStoreError) {
        guard isActive else { throw .closed(path: connection.path) }
    }

    private func address(of path: String) throws(SQLiteStoreError) -> (collection: String, id: String) {
        try requireActive()
        return try SQLiteSync.address(of: path, in: connection)
    }

    /// Answers one request inside a savepoint, so that a failed operation leaves nothing.
    private func send(_ method: SyncMethod, _ path: String, body: Attributes?, ifVersion: Int?)
        throws(SQLiteStoreError) -> SyncResponse
    {
        try requireActive()
        var request = SyncRequest(
            method: method,
            url: URL(string: path) ?? URL(filePath: path),
            body: body.map(JSONValue.object)
        )
        if let ifVersion { request.headers["If-Match"] = "\"\(ifVersion)\"" }
        try connection.execute("SAVEPOINT keel_operation")
        switch connection.respond(to: request, idAttribute: idAttribute) {
        case .success(let response):
            try connection.execute("RELEASE keel_operation")
            return response
        case .failure(let failure):
            try? connection.execute("ROLLBACK TO keel_operation; RELEASE keel_operation")
            throw storeError(for: failure, path: path, ifVersion: ifVersion)
        }
    }

    /// The store's wording of a failed operation.
    private func storeError(for failure: SQLiteRequestFailure, path: String, ifVersion: Int?) -> SQLiteStoreError {
        if let error = failure.storeError { return error }
        let file = connection.path
        switch failure.syncError {
        case .storeRefused(let refusal):
            switch refusal.reason {
            case .versionMismatch(let current?):
                return .versionMismatch(path: file, record: path, expected: ifVersion ?? 0, current: current)
            case .notFound, .versionMismatch(nil):
                return .recordNotFound(path: file, record: path)
            case .notAnObject:
                return .sqlite(path: file, code: 0, message: refusal.description)
            }
        case .validationFailed(_, let status) where status == 422:
            return .recordExists(path: file, record: path)
        case .unencodableBody(let error):
            return .unencodableRecord(error)
        case let other:
            return .sqlite(path: file, code: 0, message: other.description)
        }
    }
}
