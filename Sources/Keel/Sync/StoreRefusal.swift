/// Why a local store refused an operation, as ``SyncError/storeRefused(_:)`` carries it.
///
/// ``InMemorySync``, `SQLiteSync` and every ``RecordStore`` answer requests with REST
/// semantics, so a refusal also has the ``status`` a REST server would answer with (404 for
/// a missing record, 412 for a version mismatch, 400 for a body that is not a JSON object).
/// Code that checks ``SyncError/status`` handles a missing record the same way with a store
/// and with a server, while the error's description speaks of the store:
///
/// ```swift
/// do {
///     try await note.fetch()
/// } catch {
///     if error.isNotFound { print(error) }  // There is no record notes/7 in the store
/// }
/// ```
public struct StoreRefusal: Sendable, Hashable {
    /// What the store refused.
    public enum Reason: Sendable, Hashable {
        /// The store has no such record. Its ``StoreRefusal/status`` is 404, or 412 when the
        /// request was conditional (`If-Match`).
        case notFound
        /// The record's version is not one the request's `If-Match` allows, so nothing was
        /// changed. The value is the record's current version (`nil` when the store keeps no
        /// versions).
        case versionMismatch(current: Int?)
        /// A create or update whose body is not a JSON object.
        case notAnObject
    }

    /// What the store refused.
    public var reason: Reason
    /// The record or collection addressed, as a path relative to the store: `notes/7`.
    public var path: String
    /// The HTTP status a REST server answers in the same case: 404, 412 or 400.
    public var status: Int

    /// A refusal of the operation on `path`.
    ///
    /// ```swift
    /// let refusal = StoreRefusal(.notFound, path: "notes/7")
    /// refusal.status  // 404
    /// ```
    ///
    /// - Parameters:
    ///   - reason: What was refused.
    ///   - path: The record or collection, relative to the store (a leading `/` is dropped).
    ///   - status: The REST status; by default 404, 412 or 400 for the reason.
    public init(_ reason: Reason, path: String, status: Int? = nil) {
        self.reason = reason
        self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        self.status = status ?? Self.defaultStatus(of: reason)
    }

    private static func defaultStatus(of reason: Reason) -> Int {
        switch reason {
        case .notFound: 404
        case .versionMismatch: 412
        case .notAnObject: 400
        }
    }
}

extension StoreRefusal: CustomStringConvertible {
    /// A sentence in the store's words.
    ///
    /// ```swift
    /// print(StoreRefusal(.versionMismatch(current: 4), path: "notes/7"))
    /// // The record notes/7 in the store is at version 4, not at the version the change was based on; …
    /// ```
    public var description: String {
        switch reason {
        case .notFound:
            return "There is no record \(path) in the store"
        case .versionMismatch(let current):
            let version = current.map { "is at version \($0), not" } ?? "is not"
            return "The record \(path) in the store \(version) at the version the change was based on; "
                + "nothing was changed"
        case .notAnObject:
            return "The store keeps JSON objects, and the body sent to \(path) is not one; nothing was changed"
        }
    }
}
