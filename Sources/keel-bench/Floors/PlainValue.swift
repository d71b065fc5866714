/// A JSON value in plain Swift: the floors' counterpart of Keel's `JSONValue`.
enum PlainValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([PlainValue])
    case object(PlainAttributes)

    /// The integer, when the value is an ``int(_:)``.
    var intValue: Int? {
        if case .int(let int) = self { return int }
        return nil
    }

    /// The elements, when the value is an ``array(_:)``.
    var arrayValue: [PlainValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The object, when the value is an ``object(_:)``.
    var objectValue: PlainAttributes? {
        if case .object(let object) = self { return object }
        return nil
    }
}

/// A record's attributes in plain Swift: a standard dictionary.
typealias PlainAttributes = [String: PlainValue]

/// An attribute map in plain Swift: the pairs in order, as a literal names them (Keel's
/// `Attributes` keeps its keys in order too).
typealias PlainPairs = ContiguousArray<(key: String, value: PlainValue)>
