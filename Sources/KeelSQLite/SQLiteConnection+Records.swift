import Foundation
import Keel

/// The records of ``SQLiteSync``, one transaction per operation; the REST semantics are
/// Keel's `RecordStore.respond(to:idAttribute:)`, shared with `InMemorySync`.
extension SQLiteConnection {
    /// Runs one request in its own transaction: `BEGIN IMMEDIATE … COMMIT` for writes, so a
    /// failure (or a crash) leaves nothing half-written.
    func perform(
        _ request: SyncRequest,
        idAttribute: String,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SyncError) -> SyncResponse {
        let writes = request.method != .read
        // IMMEDIATE takes the write lock up front, so two writers never deadlock upgrading
        // read transactions; a read uses a plain transaction for one consistent snapshot.
        try storing { () throws(SQLiteStoreError) in try begin(immediate: writes) }
        let context = SQLiteRecordsContext()
        if request.method == .create || request.method == .delete {
            context.rememberedStates = nextIDMemo.states(atDataVersion: dataVersion())
        }
        do {
            let response = try respond(to: request, idAttribute: idAttribute, context: context)
                .mapError(\.syncError).get()
            try storing { () throws(SQLiteStoreError) in
                if writes {
                    beforeCommit?(request)
                    try commit()
                } else {
                    try rollback()
                }
            }
            if writes { rememberNextID(after: request, context: context) }
            return response
        } catch {
            if isInTransaction { try? rollback() }
            if writes { nextIDMemo.forget() }
            throw error
        }
    }

    /// Keeps the collection state that a committed create left, with or without an id, or
    /// that a delete of a record other than the collection's tail left as it was, and
    /// forgets every state after any other write (see ``SQLiteNextIDMemo``).
    private func rememberNextID(after request: SyncRequest, context: SQLiteRecordsContext) {
        if request.method == .create || request.method == .delete, let stored = context.storedState {
            // The request's copy of the states goes first, so the memo changes its own
            // storage in place instead of copying it.
            context.rememberedStates = SQLiteCollectionStates()
            nextIDMemo.remember(stored.state, in: stored.collection, atDataVersion: dataVersion())
        } else {
            nextIDMemo.forget()
        }
    }

    /// Runs several requests in one `BEGIN IMMEDIATE … COMMIT` transaction, each link's id
    /// written into its request's body first; any failure rolls all of them back.
    func perform(
        _ requests: [SyncRequest],
        links: [RequestLink],
        idAttribute: String,
        beforeCommit: (@Sendable (SyncRequest) -> Void)?
    ) throws(SyncError) -> [SyncResponse] {
        try storing { () throws(SQLiteStoreError) in try begin(immediate: true) }
        do throws(SyncError) {
            var responses: [SyncResponse] = []
            for (index, request) in requests.enumerated() {
                var request = request
                for link in links where link.request == index {
                    let id = responses[link.source].body?[idAttribute] ?? .null
                    request.body = (request.body ?? [:]).setting(id, at: link.keyPath)
                }
                responses.append(try respond(to: request, idAttribute: idAttribute).mapError(\.syncError).get())
            }
            try storing { () throws(SQLiteStoreError) in
                for request in requests where request.method != .read { beforeCommit?(request) }
                try commit()
            }
            return responses
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }

    /// Answers a request inside the caller's transaction.
    ///
    /// A list that skipped damaged records says how many in
    /// ``SQLiteSync/damagedRecordsHeader``. A failure keeps the store's own error when there
    /// is one.
    func respond(
        to request: SyncRequest,
        idAttribute: String,
        context: SQLiteRecordsContext = SQLiteRecordsContext()
    ) -> Result<SyncResponse, SQLiteRequestFailure> {
        var records = SQLiteRecords(connection: self, idAttribute: idAttribute, context: context)
        do {
            var response = try records.respond(to: request, idAttribute: idAttribute)
            try records.storePendingNextID()
            if !context.skipped.isEmpty {
                response.headers[SQLiteSync.damagedRecordsHeader] = String(context.skipped.count)
            }
            return .success(response)
        } catch {
            return .failure(SQLiteRequestFailure(syncError: error, storeError: context.storeError))
        }
    }

    /// Runs SQLite work, reporting its failure as the `Sync` API does.
    fileprivate func storing<T>(_ body: () throws(SQLiteStoreError) -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteSync.syncError(error)
        }
    }

    // MARK: - Rows

    /// The readable records of a collection in insertion order, and the damaged ones.
    ///
    /// The records come in key order (the integer range, then the second range), which is
    /// their insertion order unless explicit ids or ids of the second range were stored out
    /// of it; only then are they sorted by `seq`.
    ///
    /// A record whose id attribute is missing or names another record gets the id it is
    /// stored under, so it can always be addressed.
    func records(in collection: String, idAttribute: String) throws(SQLiteStoreError)
        -> (records: [Attributes], damaged: [SQLiteDamagedRecord])
    {
        guard let number = try collectionNumber(collection) else { return ([], []) }
        let range = SQLiteRecordKey.range(of: number)
        var list: [Attributes] = []
        var damaged: [SQLiteDamagedRecord] = []
        var listSeqs: [Int] = []
        var damagedSeqs: [Int] = []
        var lastSeq = Int.min
        var inOrder = true
        let parameters: [SQLiteValue] = [
            .integer(number), .integer(range?.lowerBound ?? 1), .integer(range?.upperBound ?? 0),
        ]
        try query(.recordsInCollection, parameters) { (row: SQLiteRow) throws(SQLiteStoreError) in
            let key = row.integer(at: 0)
            let seq = row.integer(at: 2)
            let id: StoredRecordID =
                if let range, key >= 0 { .integer(key - range.lowerBound) } else { .text(row.text(at: 3) ?? "") }
            if seq < lastSeq { inOrder = false }
            lastSeq = seq
            switch decode(row, column: 1, collection: collection, id: id, idAttribute: idAttribute) {
            case .record(let record):
                list.append(record)
                listSeqs.append(seq)
            case .damaged(let damage):
                damaged.append(damage)
                damagedSeqs.append(seq)
            }
        }
        if inOrder { return (list, damaged) }
        return (Self.sorted(list, by: listSeqs), Self.sorted(damaged, by: damagedSeqs))
    }

    /// The elements in the order of their `seq`s.
    private static func sorted<Element>(_ elements: [Element], by seqs: [Int]) -> [Element] {
        seqs.indices.sorted { seqs[$0] < seqs[$1] }.map { elements[$0] }
    }

    /// One record; a damaged one throws ``SQLiteStoreError/damagedRecord(_:)``.
    func record(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError) -> Attributes? {
        try versionedRecord(id, in: collection, idAttribute: idAttribute)?.record
    }

    /// One record and its version, read together; a damaged one throws
    /// ``SQLiteStoreError/damagedRecord(_:)``.
    func versionedRecord(_ id: String, in collection: String, idAttribute: String) throws(SQLiteStoreError)
        -> (record: Attributes, version: Int)?
    {
        guard let number = try collectionNumber(collection) else { return nil }
        func read(_ row: SQLiteRow) -> (StoredRecord, Int) {
            (
                decode(row, column: 0, collection: collection, id: .text(id), idAttribute: idAttribute),
                row.integer(at: 1)
            )
        }
        let found: (StoredRecord, Int)?
        switch SQLiteRecordKey(id, number: number) {
        case .integer(let key): found = try firstRow(of: .recordByKey, key: key) { read($0) }
        case .text: found = try firstRow(of: .recordByText, number: number, id: id) { read($0) }
        }
        switch found {
        case (.record(let record), let version)?: return (record, version)
        case (.damaged(let damage), _)?: throw .damagedRecord(damage)
        case nil: return nil
        }
    }

    /// Every damaged record of the store, collection by collection, in insertion order.
    func damagedRecords() throws(SQLiteStoreError) -> [SQLiteDamagedRecord] {
        var damaged: [SQLiteDamagedRecord] = []
        try query(.allRecords) { (row: SQLiteRow) in
            let decoded = decode(
                row,
                column: 2,
                collection: row.text(at: 0) ?? "",
                id: .text(row.text(at: 1) ?? ""),
                idAttribute: nil
            )
            if case .damaged(let damage) = decoded { damaged.append(damage) }
        }
        return damaged
    }

    /// The version of a record, or `nil` when there is none.
    func version(of id: String, in collection: String) throws(SQLiteStoreError) -> Int? {
        guard let number = try collectionNumber(collection) else { return nil }
        switch SQLiteRecordKey(id, number: number) {
        case .integer(let key): return try firstRow(of: .versionByKey, key: key) { $0.integer(at: 0) }
        case .text: return try firstRow(of: .versionByText, number: number, id: id) { $0.integer(at: 0) }
        }
    }

    /// Appends a record to its collection at version 1, and returns the collection's state
    /// after it.
    ///
    /// The record carries the collection's next id (`nextID` when larger) and its next
    /// `seq`; when it is not the collection's new tail, the collection's row keeps them too
    /// (see ``SQLiteCollectionState``).
    func insert(_ record: Attributes, id: String, into state: SQLiteCollectionState, nextID: Int)
        throws(SQLiteStoreError) -> SQLiteCollectionState
    {
        var after = state
        after.nextID = max(state.nextID, nextID)
        after.seq = state.seq + 1
        let json = try Self.encodedJSON(record)
        switch SQLiteRecordKey(id, number: state.number) {
        case .integer(let key):
            try insertRow(key: key, number: state.number, id: id, seq: after.seq, json: json, nextID: after.nextID)
            if key > (state.tailKey ?? Int.min) {
                after.tailKey = key
                return after
            }
        case .text:
            try insertRow(key: nil, number: state.number, id: id, seq: after.seq, json: json, nextID: after.nextID)
        }
        try keepInCollection(number: state.number, nextID: after.nextID, seq: after.seq)
        return after
    }

    /// Stores new attributes for an existing record, keeping its place; its version grows.
    func replace(_ record: Attributes, key id: String, in collection: String) throws(SQLiteStoreError) {
        guard let number = try collectionNumber(collection) else { return }
        switch SQLiteRecordKey(id, number: number) {
        case .integer(let key): try replaceRow(key: key, json: try Self.encodedJSON(record))
        case .text: try run(.replaceByText, [.utf8(Data(try Self.encodedJSON(record))), .integer(number), .text(id)])
        }
    }

    /// Removes a record, damaged or not, and returns whether there was one (`false` changes
    /// nothing).
    ///
    /// When the record is its collection's tail, the next id and `seq` it carries move to
    /// the collection's row first, so that no id is given again once the record is gone; a
    /// missing record is no collection's tail, so that step changes nothing either. Given
    /// the collection's `state` (exact in this transaction), that step runs only for the
    /// tail, since for any other record it changes nothing
    /// (``SQLiteCollectionState/leavesState(deleting:)``).
    @discardableResult
    func delete(_ id: String, in collection: String, state: SQLiteCollectionState? = nil)
        throws(SQLiteStoreError) -> Bool
    {
        var number = state?.number
        if number == nil { number = try collectionNumber(collection) }
        guard let number else { return false }
        switch SQLiteRecordKey(id, number: number) {
        case .integer(let key):
            if let range = SQLiteRecordKey.range(of: number), state.map({ $0.tailKey == key }) ?? true {
                try runBound(.keepTail, integers: number, range.lowerBound, range.upperBound, key)
            }
            try runBound(.deleteByKey, integers: key)
        case .text:
            try run(.deleteByText, [.integer(number), .text(id)])
        }
        return changedRows() > 0
    }

    // MARK: - JSON

    /// The record's JSON text as UTF-8 bytes, as the writer made them (bound without a copy
    /// into `Data`); a record too deep to write is refused unwritten.
    fileprivate static func encodedJSON(_ record: Attributes) throws(SQLiteStoreError) -> [UInt8] {
        do {
            return try JSONValue.object(record).jsonBytes()
        } catch {
            throw .unencodableRecord(error)
        }
    }

    /// Parses a stored record; text that is not a JSON object means the record was damaged.
    private func decode(
        _ row: SQLiteRow,
        column: Int32,
        collection: String,
        id: StoredRecordID,
        idAttribute: String?
    ) -> StoredRecord {
        func damage(_ reason: String) -> SQLiteDamagedRecord {
            SQLiteDamagedRecord(
                file: path,
                collection: collection,
                id: id.text,
                reason: reason,
                storedText: row.text(at: column) ?? ""
            )
        }
        let value: JSONValue
        do {
            value = try row.json(at: column)
        } catch {
            return .damaged(damage("not valid JSON (\(error))"))
        }
        guard var object = value.objectValue else { return .damaged(damage("not a JSON object")) }
        if let idAttribute, !id.isValue(object[idAttribute]) {
            object[idAttribute] = Self.idValue(forKey: id.text)
        }
        return .record(object)
    }

    /// Whether an id attribute's text as a path segment (``ResourcePath/segment(for:)``) is
    /// `key`; an integer is compared digit by digit, without making its text.
    static func value(_ value: JSONValue, isKey key: String) -> Bool {
        guard case .int(let int) = value else { return ResourcePath.segment(for: value) == key }
        var key = key
        return key.withUTF8 { bytes in
            var magnitude = int.magnitude
            var index = bytes.count
            repeat {
                index -= 1
                guard index >= 0, bytes[index] == UInt8(ascii: "0") + UInt8(magnitude % 10) else { return false }
                magnitude /= 10
            } while magnitude > 0
            if int < 0 {
                index -= 1
                guard index >= 0, bytes[index] == UInt8(ascii: "-") else { return false }
            }
            return index == 0
        }
    }

    /// The id attribute of the record stored under `key`: an integer when the key is one.
    static func idValue(forKey key: String) -> JSONValue {
        if let int = Int(key), String(int) == key { return .int(int) }
        return .string(key)
    }
}

/// The id a record is stored under: the integer of a rowid in its collection's integer
/// range, or the text of one in the second range.
enum StoredRecordID {
    case integer(Int)
    case text(String)

    /// The id as a path segment.
    var text: String {
        switch self {
        case .integer(let value): String(value)
        case .text(let text): text
        }
    }

    /// Whether an id attribute names this id (``SQLiteConnection/value(_:isKey:)``); an
    /// integer attribute of an integer id is compared without text.
    func isValue(_ value: JSONValue?) -> Bool {
        guard let value else { return false }
        switch self {
        case .integer(let id):
            if case .int(let int) = value { return int == id }
            return SQLiteConnection.value(value, isKey: String(id))
        case .text(let key):
            return SQLiteConnection.value(value, isKey: key)
        }
    }
}

/// A stored row: its record, or the damage that keeps it from being read.
enum StoredRecord {
    case record(Attributes)
    case damaged(SQLiteDamagedRecord)
}

/// Why a request failed inside a transaction: the `Sync` error, and the store's own error
/// when the store failed.
struct SQLiteRequestFailure: Error {
    let syncError: SyncError
    let storeError: SQLiteStoreError?
}
