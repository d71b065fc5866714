extension Model {
    /// The attributes changed by the last `set` (during its events: by the `set` in
    /// progress, including nested ones), compared with the attributes before it.
    ///
    /// A removed attribute appears with the value ``JSONValue/null``.
    ///
    /// ```swift
    /// note.set(["title": "New"])
    /// note.changed  // ["title": "New"]
    /// ```
    public var changed: Attributes { changedStorage }

    /// Whether the last `set` changed anything, or changed the given attribute.
    ///
    /// ```swift
    /// note.hasChanged()         // any attribute
    /// note.hasChanged("title")  // only the title
    /// ```
    ///
    /// - Parameter key: An attribute's name, or `nil` for any.
    public func hasChanged(_ key: String? = nil) -> Bool {
        guard let key else { return !changedStorage.isEmpty }
        return changedStorage.contains(key)
    }

    /// The changed attributes, or `nil` when nothing changed.
    ///
    /// With `diff`, returns the entries of `diff` that differ from the model: from the
    /// attributes before the change while a `set` is in progress, otherwise from the current
    /// attributes. Useful to find out what a save would change.
    ///
    /// ```swift
    /// note.changedAttributes()                     // what the last set changed
    /// note.changedAttributes(["title": "Draft"])   // nil if the title is already "Draft"
    /// ```
    ///
    /// - Parameter diff: Attributes to compare, or `nil`.
    /// - Returns: The differing attributes, or `nil` when there are none.
    public func changedAttributes(_ diff: Attributes? = nil) -> Attributes? {
        guard let diff else { return changedStorage.isEmpty ? nil : changedStorage }
        let old = isChanging ? previousStorage : storage
        let result = diff.filter { key, value in old[key] != value }
        return result.isEmpty ? nil : result
    }

    /// The value an attribute had before the last `set`.
    ///
    /// ```swift
    /// note.on("change:title") { _ in print("was", note.previous("title") ?? nil) }
    /// ```
    ///
    /// - Parameter key: The attribute's name.
    public func previous(_ key: String) -> JSONValue? { previousStorage[key] }

    /// All attributes as they were before the last `set`.
    ///
    /// ```swift
    /// let before = note.previousAttributes()
    /// ```
    public func previousAttributes() -> Attributes { previousStorage }
}
