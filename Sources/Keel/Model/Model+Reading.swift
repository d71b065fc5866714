extension Model {
    /// A copy of the current attributes.
    ///
    /// Reading it registers an Observation dependency on every attribute.
    ///
    /// ```swift
    /// for (key, value) in note.attributes { print(key, value) }
    /// ```
    public var attributes: Attributes {
        observeAttributes()
        return storage
    }

    /// The value of an attribute, or `nil` when the model does not have it.
    ///
    /// ```swift
    /// note.get("title")  // "Groceries"
    /// ```
    ///
    /// - Parameter key: The attribute's name.
    /// - Returns: The value; ``JSONValue/null`` when the attribute holds `null`.
    public func get(_ key: String) -> JSONValue? {
        guard let slot = layout.slot(of: key) else {
            observe(key)
            return nil
        }
        observe(slot: slot)
        return storage.value(at: slot)
    }

    /// Reads or writes one attribute.
    ///
    /// Reading registers an Observation dependency on this attribute only, so a SwiftUI view
    /// that shows `note["title"]` updates when the title changes and not otherwise. Writing
    /// is `set(_:_:silent:validate:options:)`; assigning `nil` is ``unset(_:silent:validate:options:)``.
    ///
    /// ```swift
    /// note["title"] = "Errands"
    /// note["title"]   // "Errands"
    /// note["title"] = nil
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { get(key) }
        set {
            if let newValue {
                set(key, newValue)
            } else {
                unset(key)
            }
        }
    }

    /// Whether the attribute is present and not `null`.
    ///
    /// `false`, `0` and `""` count as present.
    ///
    /// ```swift
    /// Note(["done": false]).has("done")  // true
    /// Note(["due": nil]).has("due")      // false
    /// ```
    ///
    /// - Parameter key: The attribute's name.
    public func has(_ key: String) -> Bool {
        guard let slot = layout.slot(of: key) else {
            observe(key)
            return false
        }
        observe(slot: slot)
        return !storage.value(at: slot).isNull
    }

    /// Whether every given attribute has an equal value in the model.
    ///
    /// ```swift
    /// note.matches(["done": false])
    /// ```
    ///
    /// - Parameter attributes: The values to compare.
    /// - Returns: `true` for an empty dictionary.
    public func matches(_ attributes: Attributes) -> Bool {
        attributes.allSatisfy { key, value in get(key) == value }
    }

    /// The attribute as a string with HTML special characters escaped; `""` when absent or null.
    ///
    /// ```swift
    /// Note(["title": "a < b"]).escape("title")  // "a &lt; b"
    /// ```
    ///
    /// - Parameter key: The attribute's name.
    public func escape(_ key: String) -> String {
        let text: String
        switch get(key) {
        case .none, .null?: return ""
        case .string(let string)?: text = string
        case let value?: text = value.description
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#x27;"
            case "`": escaped += "&#x60;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
