/// An archivable copy of a model's server state: its class, its attributes, the attributes it
/// last synced and the record the server last sent (NSRails' `NSCoding` support).
///
/// `Model` itself is not `Codable`: it is an `open class` whose subclasses add stored
/// properties, listeners and relations that no synthesized conformance could restore, and a
/// `required init(from:)` would be a second initializer every subclass has to write. A
/// snapshot holds what an archive needs to restore a model for state restoration or to pass
/// it to another process: the class's name, ``Model/attributes``, the last synced attributes
/// (so ``Model/unsavedChanges`` survives) and ``Model/remoteAttributes``. It leaves out what
/// belongs to one process: the ``Model/cid``, listeners, the collection, the backend and the
/// base URL. Related models travel inside the attributes, as they do in ``Model/toJSON(options:)``.
///
/// ```swift
/// let data = try JSONEncoder().encode(note.snapshot)
/// let restored = try Note(snapshot: JSONDecoder().decode(ModelSnapshot.self, from: data))
/// ```
public struct ModelSnapshot: Codable, Sendable, Hashable {
    /// The model's class, as `String(reflecting:)` names it (`MyApp.Note`).
    public var modelClass: String
    /// The attributes.
    public var attributes: Attributes
    /// The attributes at the last successful fetch or save, or `nil` for a model never synced.
    public var syncedAttributes: Attributes?
    /// The record the server last sent (``Model/remoteAttributes``).
    public var remoteAttributes: JSONValue?

    /// Creates a snapshot.
    ///
    /// ```swift
    /// let snapshot = ModelSnapshot(modelClass: String(reflecting: Note.self), attributes: ["id": 1])
    /// ```
    ///
    /// - Parameters:
    ///   - modelClass: The class's name, as `String(reflecting:)` gives it.
    ///   - attributes: The attributes.
    ///   - syncedAttributes: The attributes at the last sync, if any.
    ///   - remoteAttributes: The record the server last sent, if any.
    public init(
        modelClass: String,
        attributes: Attributes,
        syncedAttributes: Attributes? = nil,
        remoteAttributes: JSONValue? = nil
    ) {
        self.modelClass = modelClass
        self.attributes = attributes
        self.syncedAttributes = syncedAttributes
        self.remoteAttributes = remoteAttributes
    }
}

/// Why a ``ModelSnapshot`` cannot become a model.
///
/// ```swift
/// do { _ = try Note(snapshot: snapshot) } catch { print(error) }
/// ```
public enum ModelSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The snapshot was taken of another class.
    case classMismatch(expected: String, found: String)

    /// A sentence describing the failure.
    ///
    /// ```swift
    /// print(ModelSnapshotError.classMismatch(expected: "App.Note", found: "App.User"))
    /// ```
    public var description: String {
        switch self {
        case .classMismatch(let expected, let found):
            return "The snapshot is of \(found), not \(expected); nothing was restored"
        }
    }
}

extension Model {
    /// A copy of the model's state to archive: see ``ModelSnapshot``.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(note.snapshot)
    /// ```
    public var snapshot: ModelSnapshot {
        ModelSnapshot(
            modelClass: String(reflecting: type(of: self)),
            attributes: storage,
            syncedAttributes: syncedStorage,
            remoteAttributes: remoteAttributes
        )
    }

    /// Restores a model from a snapshot of its class: its attributes, without validation or
    /// events, its last synced attributes and its ``remoteAttributes``.
    ///
    /// ```swift
    /// let restored = try Note(snapshot: note.snapshot)
    /// restored.unsavedChanges == note.unsavedChanges  // true
    /// ```
    ///
    /// - Parameter snapshot: A snapshot taken of this class.
    /// - Throws: ``ModelSnapshotError/classMismatch(expected:found:)`` for a snapshot of
    ///   another class (a subclass's included), before anything is built.
    public convenience init(snapshot: ModelSnapshot) throws(ModelSnapshotError) {
        let expected = String(reflecting: Self.self)
        guard snapshot.modelClass == expected else {
            throw .classMismatch(expected: expected, found: snapshot.modelClass)
        }
        self.init(snapshot.attributes, options: ChangeOptions(silent: true, validate: false))
        syncedStorage = snapshot.syncedAttributes
        if let remote = snapshot.remoteAttributes { extras.remoteAttributes = remote }
    }
}
