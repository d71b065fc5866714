/// NSRails' class-level finders, `Note.find(7)` and `Note.all()`, for every model class.
///
/// ``Model`` conforms, so every subclass has them; the protocol exists so that `all` can
/// return models of the class it is called on (`[Note]` for `Note.all()`).
///
/// ```swift
/// let notes: [Note] = try await Note.all()
/// ```
public protocol Findable: AnyObject {}

extension Model: Findable {}

extension Findable where Self: Model {
    /// Loads the record with this id from the class's backend: NSRails' `remoteObjectWithID:`.
    ///
    /// Builds a model of this class with the id, then ``Model/fetch(options:)``s it from the
    /// class's `urlRoot`, against the class's `sync` backend (or the options' URL).
    ///
    /// ```swift
    /// final class Note: Model {
    ///     override class var urlRoot: String? { "/notes" }
    ///     override class var sync: (any Sync)? { api }
    /// }
    /// let note = try await Note.find(7)   // GET /notes/7
    /// ```
    ///
    /// - Parameters:
    ///   - id: The record's id.
    ///   - options: Per-call URL, query, headers, timeout, handlers.
    /// - Returns: The loaded model.
    /// - Throws: ``SyncError``; one whose ``SyncError/isNotFound`` is `true` when there is
    ///   no such record (``SyncError/httpStatus(_:body:)`` with 404 from a server,
    ///   ``SyncError/storeRefused(_:)`` from a local store).
    public static func find(_ id: JSONValue, options: SyncOptions = SyncOptions()) async throws(SyncError) -> Self {
        let model = Self([idAttribute: id])
        try await model.fetch(options: options)
        return model
    }

    /// Loads every record of the class (or those the query selects): NSRails' `remoteAll`.
    ///
    /// Fetches the class's `urlRoot` as a list (for a class whose format wraps records in a root
    /// key, such as ``WireFormat/rails``, `/` plus its ``Model/pluralResourceName`` when it has
    /// none), against the class's `sync` backend. The models keep that URL and backend, so they
    /// can be saved and destroyed on their own.
    ///
    /// ```swift
    /// let open = try await Note.all(query: ["done": "false"])   // GET /notes?done=false
    /// ```
    ///
    /// - Parameters:
    ///   - query: Query parameters, in order.
    ///   - options: Per-call URL, headers, timeout, handlers; `query`, when given, replaces
    ///     the options' query.
    /// - Returns: The models, in the order of the response.
    /// - Throws: ``SyncError``; ``SyncError/missingURL(_:)`` when the class has no `urlRoot` and
    ///   its format wraps no records.
    public static func all(
        query: KeyValuePairs<String, String> = [:],
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> [Self] {
        var options = options
        if !query.isEmpty { options.query = query }
        let format = options.wireFormat ?? wireFormat
        let url = urlRoot ?? (format.root.wrapsRequests ? "/" + pluralResourceName : nil)
        return try await Collection<Self>(url: url).fetch(options: options)
    }
}
