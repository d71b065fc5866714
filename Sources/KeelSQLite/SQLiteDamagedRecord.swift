import Foundation

/// A stored record that cannot be read: its text is not a JSON object.
///
/// Only damage to the file (a disk error, another program writing to it) leaves such a
/// record. Reads skip it and say so, so the other records stay usable: a list answers
/// without it, with the header ``SQLiteSync/damagedRecordsHeader``; reading the record
/// itself fails with ``SQLiteStoreError/damagedRecord(_:)``. Find every damaged record
/// with ``SQLiteSync/damagedRecords()``, then remove one with
/// ``SQLiteSync/removeRecord(at:)`` or store new attributes for it with
/// ``SQLiteSync/repairRecord(at:with:)``.
///
/// ```swift
/// for damaged in try await store.damagedRecords() {
///     print(damaged)  // The record /notes/3 in /…/notes.sqlite is damaged: …
///     try await store.removeRecord(at: damaged.path)
/// }
/// ```
public struct SQLiteDamagedRecord: Sendable, Hashable, CustomStringConvertible {
    /// The database file, or `:memory:`.
    public let file: String
    /// The collection path, such as `/notes`.
    public let collection: String
    /// The record's id, as a decoded path segment, such as `3`.
    public let id: String
    /// What is wrong with the stored text, such as `not valid JSON (…)`.
    public let reason: String
    /// The stored text, as far as it can be read.
    public let storedText: String

    /// Creates a report; the store makes these.
    ///
    /// ```swift
    /// let damaged = SQLiteDamagedRecord(
    ///     file: "/tmp/notes.sqlite", collection: "/notes", id: "3", reason: "not a JSON object", storedText: "[]"
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - file: The database file.
    ///   - collection: The collection path.
    ///   - id: The record's id.
    ///   - reason: What is wrong.
    ///   - storedText: The stored text.
    public init(file: String, collection: String, id: String, reason: String, storedText: String) {
        self.file = file
        self.collection = collection
        self.id = id
        self.reason = reason
        self.storedText = storedText
    }

    /// The record's path, such as `/notes/3`, for ``SQLiteSync/removeRecord(at:)``.
    ///
    /// ```swift
    /// damaged.path  // "/notes/3"
    /// ```
    public var path: String {
        let segment = id.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? id
        return (collection == "/" ? "" : collection) + "/" + segment
    }

    /// A sentence naming the file, the record and the damage.
    ///
    /// ```swift
    /// print(damaged)  // The record /notes/3 in /tmp/notes.sqlite is damaged: not a JSON object
    /// ```
    public var description: String {
        "The record \(path) in \(file) is damaged: \(reason)"
    }

    /// The characters a path segment keeps unencoded.
    private static let segmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return allowed
    }()
}
