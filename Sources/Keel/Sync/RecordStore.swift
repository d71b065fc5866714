/// A place that keeps records by collection path and id — a dictionary, files, a database —
/// which ``RecordStoreSync`` turns into a complete REST-style ``Sync`` backend.
///
/// A store only loads and saves records. Everything a REST server does is shared by every
/// store, in ``respond(to:idAttribute:)``: splitting the URL into collection and id,
/// assigning ids, create/read/update/patch/delete semantics, query filters, patch merging,
/// status codes and ``SyncError``s. ``InMemorySync`` and the SQLite store of `KeelSQLite`
/// are built on it, so a custom store behaves exactly like them.
///
/// ```swift
/// struct DictionaryStore: RecordStore {
///     var tables: [String: [(id: String, record: Attributes)]] = [:]
///     var nextIDs: [String: Int] = [:]
///
///     func records(in collection: String) -> [Attributes]? { tables[collection]?.map(\.record) }
///     func record(_ id: String, in collection: String) -> Attributes? {
///         tables[collection]?.first { $0.id == id }?.record
///     }
///     mutating func insert(_ record: Attributes, id: String, in collection: String) {
///         tables[collection, default: []].append((id, record))
///     }
///     mutating func replace(_ record: Attributes, id: String, in collection: String) {
///         tables[collection] = tables[collection]?.map { $0.id == id ? (id, record) : $0 }
///     }
///     mutating func delete(_ id: String, in collection: String) { tables[collection]?.removeAll { $0.id == id } }
///     func nextID(in collection: String) -> Int { nextIDs[collection] ?? 1 }
///     mutating func setNextID(_ id: Int, in collection: String) { nextIDs[collection] = id }
/// }
///
/// let notes = Collection<Note>(url: "/notes", sync: RecordStoreSync(DictionaryStore()))
/// ```
///
/// Collections are paths such as `/notes` or `/users/7/invites`, percent-encoded as in the
/// URL; ids are the decoded last path segment, such as `7` or `a/b`, and are unique within
/// a collection.
///
/// ### Implementation requirements
///
/// - ``records(in:)`` answers `nil` for a collection that never held a record, and the
///   records in insertion order otherwise (an empty array once all were deleted).
/// - ``insert(_:id:in:)`` appends a record under an id that is not taken;
///   ``replace(_:id:in:)`` and ``delete(_:in:)`` are only called for an existing id.
/// - ``version(of:in:)``, when the store keeps versions, answers 1 for a record
///   ``insert(_:id:in:)`` stored and one more after each ``replace(_:id:in:)``.
/// - ``nextID(in:)`` answers the value last given to ``setNextID(_:in:)`` for the
///   collection, or 1. Keep it even when records are deleted, so ids are never reused.
/// - Throw ``SyncError/storage(_:)`` when the medium fails (a full disk, a damaged file).
///   Calls are not atomic by themselves: ``RecordStoreSync`` runs each request's calls
///   under one lock; a store with its own transactions calls ``respond(to:idAttribute:)``
///   inside one.
public protocol RecordStore {
    /// The records of a collection, in insertion order.
    ///
    /// ```swift
    /// store.records(in: "/notes")?.count
    /// ```
    ///
    /// - Parameter collection: The collection path, such as `/notes`.
    /// - Returns: The records, or `nil` when the collection never held one.
    /// - Throws: ``SyncError/storage(_:)`` when the records cannot be read.
    func records(in collection: String) throws(SyncError) -> [Attributes]?

    /// One record of a collection.
    ///
    /// ```swift
    /// store.record("7", in: "/notes")?["title"]
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: The record, or `nil` when there is none with this id.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be read.
    func record(_ id: String, in collection: String) throws(SyncError) -> Attributes?

    /// The record that an `update` replaces, or only what the update keeps of it: its id
    /// attribute; implement it when that is cheaper than loading the record.
    ///
    /// ```swift
    /// store.recordForReplacing("7", in: "/notes", idAttribute: "id")?["id"]  // 7
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Returns: ``record(_:in:)``'s answer, or an object holding at least its
    ///   `idAttribute` as ``record(_:in:)`` would answer it (absent when the record has
    ///   none); `nil` when there is no record with this id.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be read, as
    ///   ``record(_:in:)`` would throw it (a damaged record included).
    func recordForReplacing(_ id: String, in collection: String, idAttribute: String) throws(SyncError)
        -> Attributes?

    /// Adds a record at the end of a collection, creating the collection if needed.
    ///
    /// ```swift
    /// try store.insert(["id": 7, "title": "Hi"], id: "7", in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - record: The attributes, including the id attribute.
    ///   - id: Its id as a path segment; no record of the collection has it yet.
    ///   - collection: The collection path.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be written.
    mutating func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError)

    /// Replaces an existing record, keeping its place in the collection.
    ///
    /// ```swift
    /// try store.replace(["id": 7, "title": "Bye"], id: "7", in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - record: The new attributes, including the id attribute.
    ///   - id: The id of a record the collection holds.
    ///   - collection: The collection path.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be written.
    mutating func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError)

    /// Removes an existing record.
    ///
    /// ```swift
    /// try store.delete("7", in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id of a record the collection holds.
    ///   - collection: The collection path.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be removed.
    mutating func delete(_ id: String, in collection: String) throws(SyncError)

    /// Removes a record if the collection holds it, and says whether it did; implement it
    /// when that is cheaper than asking ``containsRecord(_:in:)`` first.
    ///
    /// ```swift
    /// try store.deleteIfPresent("7", in: "/notes")  // true, then false
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: Whether a record was removed; `false` leaves the store as it was.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read or the record
    ///   cannot be removed, as ``containsRecord(_:in:)`` and ``delete(_:in:)`` would throw it.
    mutating func deleteIfPresent(_ id: String, in collection: String) throws(SyncError) -> Bool

    /// The integer id the next record created without an id may get.
    ///
    /// ```swift
    /// store.nextID(in: "/notes")  // 1 for a new collection
    /// ```
    ///
    /// - Parameter collection: The collection path.
    /// - Returns: The value last set with ``setNextID(_:in:)``, or 1.
    /// - Throws: ``SyncError/storage(_:)`` when the value cannot be read.
    func nextID(in collection: String) throws(SyncError) -> Int

    /// Remembers the integer id the next record created without an id may get.
    ///
    /// ```swift
    /// try store.setNextID(8, in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The next id; it only grows.
    ///   - collection: The collection path.
    /// - Throws: ``SyncError/storage(_:)`` when the value cannot be written.
    mutating func setNextID(_ id: Int, in collection: String) throws(SyncError)

    /// Whether a collection ever held a record; implement it when that is cheaper than
    /// loading the records.
    ///
    /// ```swift
    /// store.containsCollection("/notes")
    /// ```
    ///
    /// - Parameter collection: The collection path.
    /// - Returns: `true` when ``records(in:)`` would not answer `nil`.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read.
    func containsCollection(_ collection: String) throws(SyncError) -> Bool

    /// Whether a collection holds a record with an id; implement it when that is cheaper
    /// than loading the record.
    ///
    /// ```swift
    /// store.containsRecord("7", in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: `true` when ``record(_:in:)`` would not answer `nil`.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read.
    func containsRecord(_ id: String, in collection: String) throws(SyncError) -> Bool

    /// The version of a record: 1 when ``insert(_:id:in:)`` stores it, one more after each
    /// ``replace(_:id:in:)``.
    ///
    /// ``respond(to:idAttribute:)`` sends it as the record's `ETag` (`"3"`) and compares it
    /// with a request's `If-Match`, so a write based on an old read fails with 412 instead
    /// of overwriting a newer record. A store that keeps no versions answers `nil` (the
    /// default): its responses have no `ETag`, and only `If-Match: *` can match.
    ///
    /// ```swift
    /// store.version(of: "7", in: "/notes")  // 3 after two updates
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: The version, or `nil` when there is no such record or the store keeps no
    ///   versions.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read.
    func version(of id: String, in collection: String) throws(SyncError) -> Int?
}

extension RecordStore {
    /// Whether ``records(in:)`` answers a list.
    ///
    /// ```swift
    /// store.containsCollection("/notes")
    /// ```
    ///
    /// - Parameter collection: The collection path.
    /// - Returns: `true` when the collection ever held a record.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read.
    public func containsCollection(_ collection: String) throws(SyncError) -> Bool {
        try records(in: collection) != nil
    }

    /// Whether ``record(_:in:)`` answers a record.
    ///
    /// ```swift
    /// store.containsRecord("7", in: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: `true` when the collection holds a record with this id.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read.
    public func containsRecord(_ id: String, in collection: String) throws(SyncError) -> Bool {
        try record(id, in: collection) != nil
    }

    /// ``containsRecord(_:in:)``, then ``delete(_:in:)`` when it answers `true`.
    ///
    /// ```swift
    /// try store.deleteIfPresent("7", in: "/notes")  // true, then false
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: Whether the record was there and is removed.
    /// - Throws: ``SyncError/storage(_:)`` when the store cannot be read or the record
    ///   cannot be removed.
    public mutating func deleteIfPresent(_ id: String, in collection: String) throws(SyncError) -> Bool {
        guard try containsRecord(id, in: collection) else { return false }
        try delete(id, in: collection)
        return true
    }

    /// The whole record: ``record(_:in:)``.
    ///
    /// ```swift
    /// store.recordForReplacing("7", in: "/notes", idAttribute: "id")  // the record
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Returns: The record, or `nil` when there is none with this id.
    /// - Throws: ``SyncError/storage(_:)`` when the record cannot be read.
    public func recordForReplacing(_ id: String, in collection: String, idAttribute: String) throws(SyncError)
        -> Attributes?
    {
        try record(id, in: collection)
    }

    /// A store that keeps no versions: `nil`.
    ///
    /// ```swift
    /// DictionaryStore().version(of: "7", in: "/notes")  // nil
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id, as a decoded path segment.
    ///   - collection: The collection path.
    /// - Returns: `nil`.
    public func version(of id: String, in collection: String) throws(SyncError) -> Int? {
        nil
    }
}
