/// The JSON:API part of a wire format: the resource `type` of a class, and how ids travel.
///
/// A resource's `type` is ``type`` when given, else derived from the class name by
/// ``typeNaming``. A relation's linkage uses the type of the target class's own format, so
/// each class names its type in its own ``Model/wireFormat``:
///
/// ```swift
/// final class Person: Model {
///     override class var wireFormat: WireFormat { .jsonAPI(type: "people") }
/// }
/// ```
///
/// JSON:API ids are strings. An id made only of ASCII digits (without a leading zero, and
/// small enough for `Int`) reads as an `Int` in the app, any other as a `String`; ids are
/// sent as strings, an `Int` as its decimal digits. The same rule applies to the ids of
/// linkage (`{"type": "people", "id": "9"}` sets a foreign key to `9`).
public struct JSONAPIFormat: Sendable, Hashable {
    /// How a class's resource type is derived from its name when ``JSONAPIFormat/type`` is `nil`.
    public enum TypeNaming: Sendable, Hashable {
        /// The plural, dasherized name (`TodoItem` → `todo-items`): JSON:API's examples,
        /// Ember Data and ActiveModelSerializers.
        case pluralDasherized
        /// The class name as it is (`TodoItem`): djangorestframework-jsonapi's default, the
        /// Django model's name.
        case className
    }

    /// JSON:API's media type, `application/vnd.api+json`: the ``WireFormat/mediaType`` of
    /// ``WireFormat/jsonAPI``.
    ///
    /// ```swift
    /// JSONAPIFormat.mediaType  // "application/vnd.api+json"
    /// ```
    public static let mediaType = "application/vnd.api+json"

    /// The resource type of the class whose format this is; `nil` to derive it.
    public var type: String?
    /// How the type is derived when ``type`` is `nil`.
    public var typeNaming: TypeNaming

    /// Creates a JSON:API configuration.
    ///
    /// ```swift
    /// let drf = JSONAPIFormat(typeNaming: .className)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The resource type; `nil` to derive it from the class name.
    ///   - typeNaming: How to derive the type.
    public init(type: String? = nil, typeNaming: TypeNaming = .pluralDasherized) {
        self.type = type
        self.typeNaming = typeNaming
    }

    /// The resource type of a model class.
    ///
    /// ```swift
    /// JSONAPIFormat().resourceType(of: TodoItem.self)  // "todo-items"
    /// ```
    ///
    /// - Parameter modelType: The model class.
    /// - Returns: Its `type` on the wire.
    public func resourceType(of modelType: Model.Type) -> String {
        if let type { return type }
        switch typeNaming {
        case .pluralDasherized:
            return modelType.pluralResourceName.replacing("_", with: "-")
        case .className:
            var name = String(describing: modelType)
            if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
            if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
            return name
        }
    }

    /// The type of a relation's target: from the target class's own JSON:API format, else
    /// derived with this one's naming.
    func linkageType(of modelType: Model.Type) -> String {
        if let own = modelType.wireFormat.jsonAPIFormat { return own.resourceType(of: modelType) }
        return JSONAPIFormat(typeNaming: typeNaming).resourceType(of: modelType)
    }

    /// The app value of a wire id: an `Int` for a canonical decimal string, else the string.
    static func appID(_ wire: JSONValue) -> JSONValue {
        guard case .string(var text) = wire else { return wire }
        if let small = JSONAPIIdentityText.smallDecimal(text) { return small.map(JSONValue.int) ?? wire }
        // One pass over the contiguous digits of any other string.
        let number: Int? = text.withUTF8 { bytes in
            guard let first = bytes.first, first != 0x30 || bytes.count == 1 else { return nil }
            var number = 0
            for byte in bytes {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                let (shifted, shiftOverflows) = number.multipliedReportingOverflow(by: 10)
                let (sum, sumOverflows) = shifted.addingReportingOverflow(Int(byte &- 0x30))
                guard !shiftOverflows && !sumOverflows else { return nil }
                number = sum
            }
            return number
        }
        return number.map(JSONValue.int) ?? wire
    }

    /// The wire id of an app value: a string; `nil` for `null` or a value that is no id.
    static func wireID(_ app: JSONValue) -> String? {
        if let text = app.stringValue { return text }
        if let number = app.intValue { return String(number) }
        return nil
    }
}
