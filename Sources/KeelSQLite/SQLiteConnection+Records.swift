import Foundation
import Keel

/// The REST semantics of ``SQLiteSync``, one transaction per operation; they match
/// `InMemorySync` rule for rule.
extension SQLiteConnection {
    /// Runs one request in its own transaction: `BEGIN IMMEDIATE … COMMIT` for writes, so a
    /// failure (or a crash) leaves nothing half-written.
    func perform(
        _ request: SyncRequest,
        idAttribute: String,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SQLiteStoreError) -> SyncResponse {
        let writes = request.method != .read
        // IMMEDIATE takes the write lock up front, so two writers never deadlock upgrading
        // read transactions; a read uses a plain transaction for one consistent snapshot.
        try execute(writes ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let response = try handle(request, idAttribute: idAttribute)
            if writes && response.isSuccess {
                beforeCommit?(request)
                try execute("COMMIT")
            } else {
                try execute("ROLLBACK")
            }
            return response
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func handle(_ request: SyncRequest, idAttribute: String) throws(SQLiteStoreError) -> SyncResponse {
        let resource = ResourcePath(request.url)
        switch request.method {
        case .create:
            guard let body = request.body?.objectValue else { return Self.badRequest("expected a JSON object") }
            return try create(body, in: resource.path, idAttribute: idAttribute)
        case .read:
            if let parent = resource.parent, let segment = resource.lastSegment,
                let record = try record(segment, in: parent)
            {
                return SyncResponse(status: 200, body: .object(record))
            }
            if try collectionExists(resource.path) {
                let query = ResourcePath.queryItems(of: request)
                let list = try records(in: resource.path).filter { ResourcePath.matches($0, query: query) }
                return SyncResponse(status: 200, body: .array(list.map(JSONValue.object)))
            }
            if let parent = resource.parent, try collectionExists(parent) { return Self.notFound }
            return SyncResponse(status: 200, body: [])
        case .update, .patch:
            guard let body = request.body?.objectValue else { return Self.badRequest("expected a JSON object") }
            guard let parent = resource.parent, let segment = resource.lastSegment else { return Self.notFound }
            if let existing = try record(segment, in: parent) {
                var stored = request.method == .patch ? existing.merging(body) : body
                stored[idAttribute] = existing[idAttribute]
                try run(
                    "UPDATE records SET json = ?1 WHERE collection = ?2 AND id = ?3",
                    [try Self.encode(stored), .text(parent), .text(segment)]
                )
                return SyncResponse(status: 200, body: .object(stored))
            }
            guard request.method == .update else { return Self.notFound }
            var record = body
            let id = body[idAttribute] ?? Int(segment).map(JSONValue.int) ?? .string(segment)
            record[idAttribute] = id
            let key = ResourcePath.segment(for: id)
            if try exists(key, in: parent) { return Self.taken(idAttribute) }
            try ensureCollection(parent)
            try insert(record, key: key, in: parent)
            return SyncResponse(status: 201, body: .object(record))
        case .delete:
            guard let parent = resource.parent, let segment = resource.lastSegment else { return Self.notFound }
            try run("DELETE FROM records WHERE collection = ?1 AND id = ?2", [.text(parent), .text(segment)])
            return changes > 0 ? SyncResponse(status: 204) : Self.notFound
        }
    }

    private func create(_ body: Attributes, in collection: String, idAttribute: String) throws(SQLiteStoreError)
        -> SyncResponse
    {
        var record = body
        var next = try nextID(in: collection) ?? 1
        let key: String
        if let id = record[idAttribute], !id.isNull {
            key = ResourcePath.segment(for: id)
            if try exists(key, in: collection) { return Self.taken(idAttribute) }
            if let int = id.intValue { next = max(next, int &+ 1) }
        } else {
            // Skip ids taken by records stored under explicit ids (an upsert with PUT).
            var id = next
            while try exists(String(id), in: collection) { id += 1 }
            record[idAttribute] = .int(id)
            key = String(id)
            next = id + 1
        }
        try run(
            """
            INSERT INTO collections(path, next_id) VALUES (?1, ?2)
            ON CONFLICT(path) DO UPDATE SET next_id = excluded.next_id
            """,
            [.text(collection), .integer(next)]
        )
        try insert(record, key: key, in: collection)
        return SyncResponse(status: 201, body: .object(record))
    }

    // MARK: - Rows

    /// The records of a collection, in insertion order.
    func records(in collection: String) throws(SQLiteStoreError) -> [Attributes] {
        var list: [Attributes] = []
        try query(
            "SELECT id, json FROM records WHERE collection = ?1 ORDER BY seq",
            [.text(collection)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            list.append(try decode(row, column: 1, collection: collection, id: row.text(at: 0) ?? ""))
        }
        return list
    }

    private func record(_ id: String, in collection: String) throws(SQLiteStoreError) -> Attributes? {
        var found: Attributes?
        try query(
            "SELECT json FROM records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            found = try decode(row, column: 0, collection: collection, id: id)
        }
        return found
    }

    private func exists(_ id: String, in collection: String) throws(SQLiteStoreError) -> Bool {
        var found = false
        try query("SELECT 1 FROM records WHERE collection = ?1 AND id = ?2", [.text(collection), .text(id)]) { _ in
            found = true
        }
        return found
    }

    private func insert(_ record: Attributes, key: String, in collection: String) throws(SQLiteStoreError) {
        try run(
            """
            INSERT INTO records(collection, id, seq, json)
            VALUES (?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM records WHERE collection = ?1), ?3)
            """,
            [.text(collection), .text(key), try Self.encode(record)]
        )
    }

    private func collectionExists(_ collection: String) throws(SQLiteStoreError) -> Bool {
        try nextID(in: collection) != nil
    }

    private func nextID(in collection: String) throws(SQLiteStoreError) -> Int? {
        var next: Int?
        try query("SELECT next_id FROM collections WHERE path = ?1", [.text(collection)]) { row in
            next = row.integer(at: 0)
        }
        return next
    }

    private func ensureCollection(_ collection: String) throws(SQLiteStoreError) {
        try run("INSERT OR IGNORE INTO collections(path) VALUES (?1)", [.text(collection)])
    }

    // MARK: - JSON

    private static func encode(_ record: Attributes) throws(SQLiteStoreError) -> SQLiteValue {
        do {
            return .utf8(try record.jsonData())
        } catch {
            throw .unencodableRecord(error)
        }
    }

    /// Parses a stored record; text that is not a JSON object means the file was damaged.
    private func decode(_ row: SQLiteRow, column: Int32, collection: String, id: String) throws(SQLiteStoreError)
        -> Attributes
    {
        let value: JSONValue
        do {
            value = try row.json(at: column)
        } catch {
            throw .corrupt(path: path, message: "the record \(collection)/\(id) is not valid JSON (\(error))")
        }
        guard let object = value.objectValue else {
            throw .corrupt(path: path, message: "the record \(collection)/\(id) is not a JSON object")
        }
        return object
    }

    // MARK: - Responses

    private static let notFound = SyncResponse(status: 404, body: ["error": "not found"])

    private static func badRequest(_ message: String) -> SyncResponse {
        SyncResponse(status: 400, body: ["error": .string(message)])
    }

    private static func taken(_ idAttribute: String) -> SyncResponse {
        SyncResponse(status: 422, body: [idAttribute: ["has already been taken"]])
    }
}
