import Foundation
import Keel

/// The rows of ``SQLiteOfflineStore`` on one connection, inside a transaction the caller
/// opened: the local copy of the records (`offline_records`, a removed record kept as a
/// tombstone until its delete is sent) and the queue (`offline_queue`).
struct OfflineTables {
    let connection: SQLiteConnection
    let idAttribute: String

    // MARK: - Records

    /// The stored records of a collection in order, without tombstones.
    func records(in collection: String) throws(SQLiteStoreError) -> [Attributes] {
        var list: [Attributes] = []
        try connection.query(
            "SELECT id, json FROM offline_records WHERE collection = ?1 AND removed = 0 ORDER BY seq",
            [.text(collection)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            list.append(try decodeObject(row.text(at: 1), what: "the record \(collection)/\(row.text(at: 0) ?? "")"))
        }
        return list
    }

    /// One record; tombstones only when `includingRemoved`.
    func record(_ id: String, in collection: String, includingRemoved: Bool = false) throws(SQLiteStoreError)
        -> Attributes?
    {
        var found: Attributes?
        try connection.query(
            "SELECT json, removed FROM offline_records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            guard includingRemoved || row.integer(at: 1) == 0 else { return }
            found = try decodeObject(row.text(at: 0), what: "the record \(collection)/\(id)")
        }
        return found
    }

    /// The stored server version of a record.
    func version(of id: String, in collection: String) throws(SQLiteStoreError) -> String? {
        try connection.rows(
            "SELECT version FROM offline_records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        ).first?.first ?? nil
    }

    /// Inserts or replaces a record at the end of its collection (or in its place); a caller
    /// that stores many records of one collection ensures its row once, beforehand.
    func put(
        _ record: Attributes,
        id: String,
        in collection: String,
        version: String?,
        ensuringCollection: Bool = true
    ) throws(SQLiteStoreError) {
        if ensuringCollection { try ensureCollection(collection) }
        try connection.run(
            """
            INSERT INTO offline_records(collection, id, seq, json, version, removed)
            VALUES (
                ?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM offline_records WHERE collection = ?1), ?3, NULLIF(?4, ''), 0
            )
            ON CONFLICT(collection, id) DO UPDATE SET json = excluded.json, version = excluded.version, removed = 0
            """,
            [.text(collection), .text(id), try encode(.object(record)), .text(version ?? "")]
        )
    }

    /// Replaces a record's attributes, keeping its version.
    func replace(_ record: Attributes, id: String, in collection: String) throws(SQLiteStoreError) {
        try connection.run(
            "UPDATE offline_records SET json = ?1, removed = 0 WHERE collection = ?2 AND id = ?3",
            [try encode(.object(record)), .text(collection), .text(id)]
        )
    }

    func markRemoved(_ id: String, in collection: String) throws(SQLiteStoreError) {
        try connection.run(
            "UPDATE offline_records SET removed = 1 WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        )
    }

    func deleteRow(_ id: String, in collection: String) throws(SQLiteStoreError) {
        try connection.run(
            "DELETE FROM offline_records WHERE collection = ?1 AND id = ?2",
            [.text(collection), .text(id)]
        )
    }

    func ensureCollection(_ collection: String) throws(SQLiteStoreError) {
        try connection.run("INSERT OR IGNORE INTO offline_collections(path) VALUES (?1)", [.text(collection)])
    }

    func collectionExists(_ collection: String) throws(SQLiteStoreError) -> Bool {
        try !connection.rows("SELECT 1 FROM offline_collections WHERE path = ?1", [.text(collection)]).isEmpty
    }

    /// The next value of a named counter (the first is 1).
    func nextCounter(_ name: String) throws(SQLiteStoreError) -> Int {
        try connection.run(
            """
            INSERT INTO offline_counters(name, value) VALUES (?1, 1)
            ON CONFLICT(name) DO UPDATE SET value = value + 1
            """,
            [.text(name)]
        )
        return try connection.rows("SELECT value FROM offline_counters WHERE name = ?1", [.text(name)])
            .first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 1
    }

    // MARK: - Queue

    /// Every queued change, oldest first, or those of one record.
    func queue(collection: String? = nil, recordID: String? = nil) throws(SQLiteStoreError) -> [QueuedChange] {
        let filter = collection == nil ? "" : "WHERE collection = ?1 AND record_id = ?2"
        let parameters: [SQLiteValue] = collection.map { [.text($0), .text(recordID ?? "")] } ?? []
        return try changes(filter, parameters)
    }

    /// The queued changes that mention a temporary id (see ``TemporaryIDRewrite``), oldest
    /// first, through the `offline_mentions` index.
    func queue(mentioning temporaryID: String) throws(SQLiteStoreError) -> [QueuedChange] {
        try changes("WHERE seq IN (SELECT seq FROM offline_mentions WHERE temporary_id = ?1)", [.text(temporaryID)])
    }

    private func changes(_ filter: String, _ parameters: [SQLiteValue]) throws(SQLiteStoreError) -> [QueuedChange] {
        var changes: [QueuedChange] = []
        try connection.query(
            """
            SELECT seq, method, url, collection, record_id, body, headers, idempotency_key, base_version, state, detail,
                root_key
            FROM offline_queue \(filter) ORDER BY seq
            """,
            parameters
        ) { (row: SQLiteRow) throws(SQLiteStoreError) in
            changes.append(try change(from: row))
        }
        return changes
    }

    /// Records which temporary ids a queued change mentions, so that replacing one finds the
    /// changes to rewrite without reading the whole queue.
    func indexMentions(of change: QueuedChange) throws(SQLiteStoreError) {
        for temporaryID in TemporaryIDRewrite.mentions(of: change) {
            try connection.run(
                "INSERT OR IGNORE INTO offline_mentions(temporary_id, seq) VALUES (?1, ?2)",
                [.text(temporaryID), .integer(change.sequence)]
            )
        }
    }

    /// Drops the index entries of a temporary id that was replaced.
    func forgetMentions(of temporaryID: String) throws(SQLiteStoreError) {
        try connection.run("DELETE FROM offline_mentions WHERE temporary_id = ?1", [.text(temporaryID)])
    }

    private func change(from row: SQLiteRow) throws(SQLiteStoreError) -> QueuedChange {
        let sequence = row.integer(at: 0)
        let what = "the queued change \(sequence)"
        guard let method = row.text(at: 1).flatMap(SyncMethod.init(rawValue:)),
            let url = row.text(at: 2).flatMap({ URL(string: $0) })
        else { throw .corrupt(path: connection.path, message: "\(what) has no valid method or URL") }
        let body = try row.text(at: 5).map { (text) throws(SQLiteStoreError) in try decode(text, what: what) }
        var headers: [String: String] = [:]
        for (name, value) in try decodeObject(row.text(at: 6), what: what) {
            if let value = value.stringValue { headers[name] = value }
        }
        return QueuedChange(
            sequence: sequence,
            method: method,
            url: url,
            collection: row.text(at: 3) ?? "",
            recordID: row.text(at: 4) ?? "",
            body: body,
            headers: headers,
            idempotencyKey: row.text(at: 7) ?? "",
            baseVersion: row.text(at: 8),
            state: try state(row.text(at: 9), detail: row.text(at: 10), what: what),
            rootKey: row.text(at: 11)
        )
    }

    private func state(_ name: String?, detail: String?, what: String) throws(SQLiteStoreError) -> QueuedChange.State {
        let detail = try detail.map { (text) throws(SQLiteStoreError) in try decode(text, what: what) }
        switch name {
        case "failed":
            let status = detail?["status"]?.intValue ?? 0
            if let refusal = detail?["refusal"].flatMap(Self.refusal) { return .failed(.storeRefused(refusal)) }
            let error =
                status == 0
                ? SyncError.invalidResponse(detail?["message"]?.stringValue ?? "rejected")
                : SyncError(failing: SyncResponse(status: status, body: detail?["body"]))
            return .failed(error)
        case "conflict":
            return .conflict(server: detail?["server"]?.objectValue)
        default:
            return .pending
        }
    }

    /// Appends a change to the queue.
    func enqueue(
        _ method: SyncMethod,
        url: URL,
        collection: String,
        recordID: String,
        body: JSONValue?,
        headers: [String: String],
        idempotencyKey: String,
        baseVersion: String?,
        rootKey: String?
    ) throws(SQLiteStoreError) {
        let headerObject = JSONValue.object(Attributes(headers.mapValues { JSONValue.string($0) }))
        try connection.run(
            """
            INSERT INTO offline_queue(
                method, url, collection, record_id, body, headers, idempotency_key, base_version, root_key
            )
            VALUES (?1, ?2, ?3, ?4, NULLIF(?5, ''), ?6, ?7, NULLIF(?8, ''), NULLIF(?9, ''))
            """,
            [
                .text(method.rawValue), .text(url.absoluteString), .text(collection), .text(recordID),
                try body.map { (body) throws(SQLiteStoreError) in try encode(body) } ?? .text(""),
                try encode(headerObject), .text(idempotencyKey), .text(baseVersion ?? ""),
                .text(rootKey ?? ""),
            ]
        )
        let sequence = try connection.rows("SELECT last_insert_rowid()").first?.first.flatMap { $0 }.flatMap { Int($0) }
        try indexMentions(
            of: QueuedChange(
                sequence: sequence ?? 0,
                method: method,
                url: url,
                collection: collection,
                recordID: recordID,
                body: body,
                headers: headers,
                idempotencyKey: idempotencyKey,
                baseVersion: baseVersion,
                state: .pending,
                rootKey: rootKey
            )
        )
    }

    func contains(_ change: QueuedChange) throws(SQLiteStoreError) -> Bool {
        try !connection.rows("SELECT 1 FROM offline_queue WHERE seq = ?1", [.integer(change.sequence)]).isEmpty
    }

    func dequeue(_ change: QueuedChange) throws(SQLiteStoreError) {
        try connection.run("DELETE FROM offline_queue WHERE seq = ?1", [.integer(change.sequence)])
    }

    /// A store's refusal as it is kept in a failed change's detail.
    private static func json(of refusal: StoreRefusal) -> JSONValue {
        var json: JSONObject = ["path": .string(refusal.path), "status": .int(refusal.status)]
        switch refusal.reason {
        case .notFound: json["reason"] = "notFound"
        case .notAnObject: json["reason"] = "notAnObject"
        case .versionMismatch(let current):
            json["reason"] = "versionMismatch"
            json["current"] = current.map(JSONValue.int)
        }
        return .object(json)
    }

    /// The refusal that ``json(of:)`` kept, or `nil` when the detail is not one.
    private static func refusal(_ json: JSONValue) -> StoreRefusal? {
        guard let path = json["path"]?.stringValue, let status = json["status"]?.intValue else { return nil }
        let reason: StoreRefusal.Reason
        switch json["reason"]?.stringValue {
        case "notFound": reason = .notFound
        case "notAnObject": reason = .notAnObject
        case "versionMismatch": reason = .versionMismatch(current: json["current"]?.intValue)
        default: return nil
        }
        return StoreRefusal(reason, path: path, status: status)
    }

    func setState(_ state: QueuedChange.State, of change: QueuedChange) throws(SQLiteStoreError) {
        let name: String
        var detail: JSONValue?
        switch state {
        case .pending:
            name = "pending"
        case .failed(let error):
            name = "failed"
            detail =
                error.status.map { status in
                    var body: JSONValue = .null
                    if case .httpStatus(_, let errorBody) = error { body = errorBody ?? .null }
                    if case .validationFailed(let errors, _) = error {
                        body = .object(Attributes(errors.attributes.mapValues { .array($0.map(JSONValue.string)) }))
                    }
                    if case .storeRefused(let refusal) = error {
                        return ["status": .int(status), "refusal": Self.json(of: refusal)]
                    }
                    return ["status": .int(status), "body": body]
                } ?? ["message": .string(String(describing: error))]
        case .conflict(let server):
            name = "conflict"
            detail = ["server": server.map(JSONValue.object) ?? .null]
        }
        try connection.run(
            "UPDATE offline_queue SET state = ?1, detail = NULLIF(?2, '') WHERE seq = ?3",
            [
                .text(name), try detail.map { (detail) throws(SQLiteStoreError) in try encode(detail) } ?? .text(""),
                .integer(change.sequence),
            ]
        )
    }

    /// Gives the remaining changes of a record a new base version (after one of its
    /// changes was accepted, later ones build on the server's new version).
    func rebase(collection: String, recordID: String, version: String?) throws(SQLiteStoreError) {
        try connection.run(
            "UPDATE offline_queue SET base_version = NULLIF(?1, '') WHERE collection = ?2 AND record_id = ?3",
            [.text(version ?? ""), .text(collection), .text(recordID)]
        )
    }

    // MARK: - JSON

    func encode(_ value: JSONValue) throws(SQLiteStoreError) -> SQLiteValue {
        do {
            return .utf8(try value.jsonData())
        } catch {
            throw .unencodableRecord(error)
        }
    }

    func decode(_ text: String, what: String) throws(SQLiteStoreError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw .corrupt(path: connection.path, message: "\(what) is not valid JSON (\(error))")
        }
    }

    func decodeObject(_ text: String?, what: String) throws(SQLiteStoreError) -> Attributes {
        guard let object = try decode(text ?? "", what: what).objectValue else {
            throw .corrupt(path: connection.path, message: "\(what) is not a JSON object")
        }
        return object
    }
}
