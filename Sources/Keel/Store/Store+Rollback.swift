import Foundation

extension SyncOptions {
    /// The key of ``rollsBackOnFailure`` in the request's context.
    static let rollbackKey = "keel.rollsBack"

    /// Whether a failed save of a model a ``Store`` holds restores the model's last server
    /// state (`true`), keeps the rejected values as Backbone does (`false`), or follows the
    /// class's setting (`nil`, the default; see ``Store/register(_:path:policy:staleTime:gcTime:rollsBackFailedSaves:)``).
    ///
    /// ```swift
    /// try await todo.save(["title": "Draft"], options: SyncOptions(rollsBackOnFailure: false))
    /// ```
    public var rollsBackOnFailure: Bool? {
        get { custom[Self.rollbackKey]?.boolValue }
        set { custom[Self.rollbackKey] = newValue.map(JSONValue.bool) }
    }

    /// Options that say whether a failed save of a held model rolls back.
    ///
    /// ```swift
    /// try await todo.save(["done": true], options: SyncOptions(rollsBackOnFailure: true))
    /// ```
    ///
    /// - Parameter rollsBackOnFailure: See ``rollsBackOnFailure``.
    public init(rollsBackOnFailure: Bool) {
        self.init()
        self.rollsBackOnFailure = rollsBackOnFailure
    }
}

extension Store {
    /// The class registered under a collection path (`/todos` and `todos/` are one path).
    package func registeredClass(at path: String) -> Model.Type? {
        let wanted = ResourcePath(URL(filePath: path)).path
        return classes.values.first { ResourcePath(URL(filePath: $0.path)).path == wanted }?.type
    }
}
