/// A model class a ``Store`` registered, as it tells its backend
/// (``ModelRegistrationReceiving``): the class, the collection path its records live under
/// and, for a JSON:API class, the resource type of its records.
///
/// ```swift
/// let registration = ModelRegistration(type: Comment.self, collection: "/comments", resourceType: "comments")
/// registration.resourceType  // "comments"
/// ```
public struct ModelRegistration {
    /// The model class.
    public let type: Model.Type
    /// The collection path its records live under, such as `/comments`.
    public let collection: String
    /// The JSON:API resource type its records have on the wire (`comments`, `node--article`),
    /// or `nil` when the class is not a JSON:API class or another class has the type.
    public let resourceType: String?

    /// Describes a registration.
    ///
    /// ```swift
    /// let registration = ModelRegistration(type: Todo.self, collection: "/todos", resourceType: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - collection: The collection path its records live under.
    ///   - resourceType: The JSON:API resource type of its records, if any.
    public init(type: Model.Type, collection: String, resourceType: String?) {
        self.type = type
        self.collection = collection
        self.resourceType = resourceType
    }
}
