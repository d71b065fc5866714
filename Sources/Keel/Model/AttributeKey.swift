/// The name of an attribute together with its Swift type, for typed access to a model.
///
/// ```swift
/// extension Note {
///     static let title = AttributeKey<String>("title")
///     static let tags = AttributeKey<[String]>("tags")
/// }
///
/// note[Note.title] = "Groceries"
/// let tags: [String] = note[Note.tags] ?? []
/// ```
public struct AttributeKey<Value: JSONRepresentable>: Sendable, Hashable {
    /// The attribute's name.
    public let name: String

    /// Creates a key.
    ///
    /// ```swift
    /// static let done = AttributeKey<Bool>("done")
    /// ```
    ///
    /// - Parameter name: The attribute's name.
    public init(_ name: String) { self.name = name }
}

extension Model {
    /// Reads or writes an attribute as a Swift value.
    ///
    /// Reading returns `nil` when the attribute is absent or holds JSON of another shape, and
    /// registers an Observation dependency on this attribute as `note["done"]` does. Assigning
    /// `nil` unsets it; assigning a value goes through `set(_:_:silent:validate:options:)`, with
    /// its events and validation.
    ///
    /// ```swift
    /// note[Note.done] = true
    /// if note[Note.done] == true { print("done") }
    /// ```
    @inlinable @_disfavoredOverload
    public subscript<Value>(key: AttributeKey<Value>) -> Value? {
        // Both accessors are inlinable and use only public API, so that clients specialize
        // them for `Value` (an unspecialized accessor asks the runtime for `Optional<Value>`'s
        // metadata on every call, more than the rest of a one-attribute `set`). The setter
        // goes straight to `set(_:_:)`, whose common case is Keel's fast path.
        // Disfavored, as the relation subscripts are: no argument matches two of a model's
        // subscripts, so nothing resolves differently, and the compiler tries these only after
        // `subscript(String)`, so that `note["title"]` inside a larger expression (such as
        // `#expect(note["title"] == "x")`) type-checks faster.
        get { get(key.name).flatMap(Value.init(json:)) }
        set {
            if let newValue {
                setWithDefaultOptions(key.name, newValue.json)
            } else {
                unset(key.name)
            }
        }
    }

    /// Changes one attribute from a Swift value; see `set(_:_:silent:validate:options:)`.
    ///
    /// ```swift
    /// note.set(Note.title, "Errands", silent: true)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The typed key.
    ///   - value: The new value.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call.
    ///   - options: Further options.
    /// - Returns: `false` when validation rejected the change.
    @inlinable @discardableResult
    public func set<Value>(
        _ key: AttributeKey<Value>,
        _ value: Value,
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) -> Bool {
        // A call without flags or options, the common one, passes none: the test folds away.
        if !silent, validate == nil, options.hasDefaultValues { return setWithDefaultOptions(key.name, value.json) }
        return set(key.name, value.json, silent: silent, validate: validate, options: options)
    }
}
