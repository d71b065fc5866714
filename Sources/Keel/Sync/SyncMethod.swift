/// The five persistence operations, with Backbone's names.
///
/// ``RESTSync`` maps them to HTTP: create→POST, read→GET, update→PUT, patch→PATCH,
/// delete→DELETE.
///
/// ```swift
/// SyncMethod.patch.httpMethod  // "PATCH"
/// ```
public enum SyncMethod: String, Sendable, Hashable, CaseIterable {
    /// Stores a new record (`save` of a new model, `Collection.create`).
    case create
    /// Loads a record or a list (`fetch`).
    case read
    /// Replaces a record (`save` of a saved model).
    case update
    /// Changes some attributes of a record (`save(…, patch: true)`).
    case patch
    /// Deletes a record (`destroy`).
    case delete

    /// The HTTP method for this operation.
    ///
    /// ```swift
    /// SyncMethod.create.httpMethod  // "POST"
    /// ```
    public var httpMethod: String {
        switch self {
        case .create: return "POST"
        case .read: return "GET"
        case .update: return "PUT"
        case .patch: return "PATCH"
        case .delete: return "DELETE"
        }
    }
}
