/// Drupal's field values: every field a list of items (`"title": [{"value": "Hello"}]`,
/// `"uid": [{"target_id": 1}]`) in Drupal 8 and later, and fields wrapped in a language
/// (`"body": {"und": [{"value": "…"}]}`) in Drupal 7's Services module.
///
/// Responses are unwrapped to plain values (`"title": "Hello"`), requests wrapped back, so
/// the app reads and writes `note["title"]` as with any other server. An item gives its
/// ``itemKeys`` entry, else its `value`, else its `target_id`; an item with none of these
/// (a link, an image) stays a whole object. A field with no items reads as `null`; one
/// with several as a list, as do the ``multiValued`` fields always.
///
/// ```swift
/// var fields = DrupalFields(.drupal8)
/// fields.itemKeys["field_tags"] = "target_id"
/// fields.multiValued.insert("field_tags")
/// ```
public struct DrupalFields: Sendable, Hashable {
    /// The Drupal API that serves the entities.
    public enum Version: Sendable, Hashable {
        /// Drupal 8 and later, core REST with `?_format=json`: every field but those whose
        /// name starts with `_` is a list of items.
        case drupal8
        /// Drupal 7 with the Services module: `body` and the `field_…` fields are wrapped
        /// in their language (`und` for none); other properties are plain.
        case drupal7(language: String)
    }

    /// The Drupal API.
    public var version: Version
    /// The key that holds a field's value in its items, by wire name: `target_id` for entity
    /// references (`type`, `uid`), `tid` for Drupal 7 taxonomy terms, `value` for the others.
    public var itemKeys: [String: String]
    /// Fields that hold several values, by wire name: always a list in the app.
    public var multiValued: Set<String>

    /// Creates a field configuration.
    ///
    /// ```swift
    /// let fields = DrupalFields(.drupal7(language: "und"), itemKeys: ["field_tags": "tid"])
    /// ```
    ///
    /// - Parameters:
    ///   - version: The Drupal API.
    ///   - itemKeys: The item key of particular fields, by wire name.
    ///   - multiValued: Fields that always read as lists, by wire name.
    public init(_ version: Version, itemKeys: [String: String] = [:], multiValued: Set<String> = []) {
        self.version = version
        self.itemKeys = itemKeys
        self.multiValued = multiValued
    }

    /// Unwraps the fields of one entity.
    func unwrap(_ entity: JSONObject, at path: String) throws(SyncError) -> JSONObject {
        var result = JSONObject()
        for (field, value) in entity {
            result[field] = try unwrap(field: field, value, at: Self.path(path, field))
        }
        return result
    }

    /// Wraps the fields of one entity.
    func wrap(_ entity: JSONObject) -> JSONObject {
        var result = JSONObject()
        for (field, value) in entity { result[field] = wrap(field: field, value) }
        return result
    }

    private func unwrap(field: String, _ value: JSONValue, at path: String) throws(SyncError) -> JSONValue {
        let items: [JSONValue]
        switch version {
        case .drupal8:
            guard !field.hasPrefix("_") else { return value }
            guard let list = value.arrayValue else {
                throw .unmappableResponse(keyPath: path, reason: "a Drupal field is a list of items, not \(value.debugDescription)")
            }
            items = list
        case .drupal7(let language):
            guard Self.isDrupal7Field(field) else { return value }
            if let list = value.arrayValue, list.isEmpty {
                items = []
            } else if let object = value.objectValue, object.count == 1, let list = object[language]?.arrayValue {
                items = list
            } else {
                throw .unmappableResponse(
                    keyPath: path,
                    reason: "a Drupal 7 field is {\"\(language)\": [items]}, not \(value.debugDescription)"
                )
            }
        }
        var values: [JSONValue] = []
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw .unmappableResponse(
                    keyPath: "\(path)[\(index)]",
                    reason: "a field item is an object, not \(item.debugDescription)"
                )
            }
            values.append(itemKeys[field].flatMap { object[$0] } ?? object["value"] ?? object["target_id"] ?? item)
        }
        if multiValued.contains(field) { return .array(values) }
        switch values.count {
        case 0: return .null
        case 1: return values[0]
        default: return .array(values)
        }
    }

    private func wrap(field: String, _ value: JSONValue) -> JSONValue {
        let items: [JSONValue]
        switch value {
        case .null: items = []
        case .array(let values): items = values.map { item(field: field, $0) }
        default: items = [item(field: field, value)]
        }
        switch version {
        case .drupal8:
            return field.hasPrefix("_") ? value : .array(items)
        case .drupal7(let language):
            return Self.isDrupal7Field(field) ? .object([language: .array(items)]) : value
        }
    }

    private func item(field: String, _ value: JSONValue) -> JSONValue {
        if case .object = value { return value }
        return .object([itemKeys[field] ?? "value": value])
    }

    private static func isDrupal7Field(_ name: String) -> Bool {
        name == "body" || name.hasPrefix("field_")
    }

    private static func path(_ base: String, _ key: String) -> String {
        base.isEmpty ? key : "\(base).\(key)"
    }
}
