import Foundation
public import Keel

/// Finding, removing and repairing damaged records.
extension SQLiteSync {
    /// Every damaged record of the store: records whose stored text is not a JSON object.
    ///
    /// ```swift
    /// for damaged in try await store.damagedRecords() {
    ///     print(damaged)  // The record /notes/3 in /…/notes.sqlite is damaged: not valid JSON (…)
    /// }
    /// ```
    ///
    /// - Returns: The damaged records, by collection and in insertion order; empty when all
    ///   records can be read.
    /// - Throws: ``SQLiteStoreError`` when the database cannot be read.
    /// - Complexity: O(*n*) in the size of the database: every record is parsed.
    public func damagedRecords() async throws(SQLiteStoreError) -> [SQLiteDamagedRecord] {
        try await storeOperation { (connection) throws(SQLiteStoreError) in try connection.damagedRecords() }
    }

    /// Removes one record, damaged or not, without reading it.
    ///
    /// A `delete` through ``perform(_:)`` does the same for a record that can be read.
    ///
    /// ```swift
    /// try await store.removeRecord(at: "/notes/3")
    /// ```
    ///
    /// - Parameter path: The record's path, such as `/notes/3` (or ``SQLiteDamagedRecord/path``).
    /// - Throws: ``SQLiteStoreError/recordNotFound(path:record:)`` when there is no such
    ///   record, and ``SQLiteStoreError`` when the store fails.
    public func removeRecord(at path: String) async throws(SQLiteStoreError) {
        try await storeOperation { (connection) throws(SQLiteStoreError) in
            try connection.writing { () throws(SQLiteStoreError) in
                let (collection, id) = try Self.address(of: path, in: connection)
                guard try connection.version(of: id, in: collection) != nil else {
                    throw .recordNotFound(path: connection.path, record: path)
                }
                try connection.delete(id, in: collection)
            }
        }
    }

    /// Stores new attributes for a record, damaged or not, keeping its place in the
    /// collection; its version grows by one.
    ///
    /// The record keeps its id: the id attribute is set to the id it is stored under.
    ///
    /// ```swift
    /// try await store.repairRecord(at: "/notes/3", with: ["title": "Recovered"])
    /// ```
    ///
    /// - Parameters:
    ///   - path: The record's path, such as `/notes/3`.
    ///   - attributes: Its new attributes.
    /// - Returns: The attributes as stored, with the id.
    /// - Throws: ``SQLiteStoreError/recordNotFound(path:record:)`` when there is no such
    ///   record, ``SQLiteStoreError/unencodableRecord(_:)`` for attributes that cannot be
    ///   written, and ``SQLiteStoreError`` when the store fails.
    @discardableResult
    public func repairRecord(at path: String, with attributes: Attributes) async throws(SQLiteStoreError)
        -> Attributes
    {
        let idAttribute = self.idAttribute
        return try await storeOperation { (connection) throws(SQLiteStoreError) in
            try connection.writing { () throws(SQLiteStoreError) in
                let (collection, id) = try Self.address(of: path, in: connection)
                guard try connection.version(of: id, in: collection) != nil else {
                    throw .recordNotFound(path: connection.path, record: path)
                }
                var record = attributes
                record[idAttribute] = SQLiteConnection.idValue(forKey: id)
                try connection.replace(record, key: id, in: collection)
                return record
            }
        }
    }

    // MARK: - Running store work

    /// Runs work on the store's queue with the store's own error type.
    func storeOperation<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(SQLiteStoreError) -> T
    ) async throws(SQLiteStoreError) -> T {
        let path = fileURL?.path(percentEncoded: false) ?? ":memory:"
        let result = await withConnection { connection in
            Result { () throws(SQLiteStoreError) -> T in try body(connection) }
        }
        switch result {
        case .success(let outcome): return try outcome.get()
        case .failure(.cancelled): throw .cancelled(path: path)
        case .failure(.store(let error)): throw error
        }
    }

    /// The collection and id of a record path such as `/notes/3`.
    static func address(of path: String, in connection: SQLiteConnection) throws(SQLiteStoreError)
        -> (collection: String, id: String)
    {
        let resource = ResourcePath(URL(string: path) ?? URL(filePath: path))
        guard let collection = resource.parent, let id = resource.lastSegment else {
            throw .recordNotFound(path: connection.path, record: path)
        }
        return (collection, id)
    }
}

extension SQLiteConnection {
    /// Runs `body` in a write transaction: all of it is committed, or none of it when it
    /// throws.
    func writing<T>(_ body: () throws(SQLiteStoreError) -> T) throws(SQLiteStoreError) -> T {
        try begin(immediate: true)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }
}
