/// Why an ``IdentityMap`` refused to register a model.
///
/// ```swift
/// do {
///     try map.register(copy, collection: "/notes")
/// } catch .conflict(let collection, let id, _) {
///     print("\(collection)/\(id) is already loaded; use map.existing(Note.self, id: …, in: …)")
/// } catch {
///     print(error)
/// }
/// ```
public enum IdentityMapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A different live instance already holds this id in this collection: one record, one
    /// instance (NSRails' remote-id uniqueness).
    case conflict(collection: String, id: String, existingType: String)
    /// The model has no id yet, so it cannot be registered (save it first).
    case missingID(collection: String)
    /// The app registered another class for this JSON:API resource type
    /// (``IdentityMap/registerResourceType(_:for:collection:)``): an `included` resource of
    /// the type could not tell which class to become.
    case resourceTypeConflict(resourceType: String, registeredType: String, newType: String)

    /// A sentence describing the problem.
    ///
    /// ```swift
    /// print(IdentityMapError.conflict(collection: "/notes", id: "3", existingType: "Note"))
    /// // Note with id 3 already exists in /notes: another instance is loaded for that record
    /// ```
    public var description: String {
        switch self {
        case .conflict(let collection, let id, let existingType):
            return "\(existingType) with id \(id) already exists in \(collection): "
                + "another instance is loaded for that record"
        case .missingID(let collection):
            return "A model without an id cannot be registered for \(collection); save it first"
        case .resourceTypeConflict(let resourceType, let registeredType, let newType):
            return "The resource type \(resourceType) is registered for \(registeredType); "
                + "it cannot be registered for \(newType) too"
        }
    }
}
