/// A coding key with any string or integer value, for the containers of
/// ``JSONValueEncoder`` and ``JSONValueDecoder`` and for coding ``JSONValue`` itself.
///
/// It is an enum so that it fits in an existential's inline buffer: coding paths hold many
/// of these, and boxing each would allocate.
enum JSONCodingKey: CodingKey, Sendable {
    /// An object key.
    case string(String)
    /// A key made from an integer.
    case int(Int)
    /// The position of an element in an array, described as `Index 3` like Foundation does.
    case index(Int)

    /// The key `super`, under which `superEncoder()` and `superDecoder()` nest.
    static let `super` = JSONCodingKey.string("super")

    init(stringValue: String) { self = .string(stringValue) }

    init(intValue: Int) { self = .int(intValue) }

    var stringValue: String {
        switch self {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .index(let index): return "Index \(index)"
        }
    }

    var intValue: Int? {
        switch self {
        case .string: return nil
        case .int(let int), .index(let int): return int
        }
    }
}
