/// How nested JSON values become the flat name–value pairs of a form, which HTML forms and
/// servers know as field names with brackets or dots.
///
/// ```swift
/// let record: JSONValue = ["user": ["name": "Ann", "tags": ["a", "b"], "address": ["city": "Oslo"]]]
/// FormNotation.brackets.fields(for: record)
/// // user[name]=Ann, user[tags][]=a, user[tags][]=b, user[address][city]=Oslo
/// FormNotation.dotted.fields(for: record["user"]!)
/// // name=Ann, tags[0]=a, tags[1]=b, address.city=Oslo
/// ```
///
/// Scalars become text: strings as they are, numbers as in JSON, `true` and `false`, and
/// `null` as an empty value. Empty arrays and objects send no field at all, since a form
/// cannot tell them from a missing value.
public enum FormNotation: Sendable, Hashable {
    /// Rack's (Rails'), PHP's and jQuery's `$.param` notation: `user[address][city]`,
    /// `user[tags][]` for each element of a list of scalars, and `user[items][0][name]` for
    /// lists of objects (which strong parameters' `permit(items: [:name])` accepts).
    case brackets
    /// Django REST framework's notation for form data (`html.parse_html_dict` and
    /// `parse_html_list`): `address.city` for nested serializers, `tags[0]` for a
    /// `ListField`, and `items[0]name` for a list of nested serializers.
    case dotted

    /// The form fields of a JSON value, in order: an object's keys become field names, and
    /// values nested inside become fields named in this notation.
    ///
    /// A scalar at the top level has no name and yields one field named `""`.
    ///
    /// ```swift
    /// let body = RequestBody.formURLEncoded(FormNotation.brackets.fields(for: ["note": ["title": "Hi"]]))
    /// ```
    ///
    /// - Parameter value: The value, usually an object.
    /// - Returns: The name–value pairs.
    /// - Complexity: O(*n*), where *n* is the number of values nested in `value`.
    public func fields(for value: JSONValue) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        append(value, named: "", isInList: false, to: &result)
        return result
    }

    /// The field name of a value at `path` (object keys from the outside in), such as the
    /// name of a file part inside a record's root: `user[avatar]` or `user.avatar`.
    ///
    /// ```swift
    /// FormNotation.brackets.name(["user", "avatar"])  // "user[avatar]"
    /// ```
    ///
    /// - Parameter path: The keys from the outside in.
    /// - Returns: The field name.
    public func name(_ path: [String]) -> String {
        path.reduce("") { name, key in child(of: name, key: key, isInList: false) }
    }

    // MARK: - Flattening

    private func append(
        _ value: JSONValue,
        named name: String,
        isInList: Bool,
        to result: inout [(name: String, value: String)]
    ) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                append(member, named: child(of: name, key: key, isInList: isInList), isInList: false, to: &result)
            }
        case .array(let elements):
            let nests = elements.contains { $0.objectValue != nil || $0.arrayValue != nil }
            for (index, element) in elements.enumerated() {
                append(element, named: self.element(of: name, index: index, nests: nests), isInList: true, to: &result)
            }
        default:
            result.append((name, Self.text(of: value)))
        }
    }

    /// The name of `key` inside the object named `name`; `isInList` when that object is an
    /// element of a list (Django REST framework then writes `items[0]name`).
    private func child(of name: String, key: String, isInList: Bool) -> String {
        guard !name.isEmpty else { return key }
        switch self {
        case .brackets: return "\(name)[\(key)]"
        case .dotted: return isInList ? "\(name)\(key)" : "\(name).\(key)"
        }
    }

    /// The name of the element at `index` of the list named `name`: with brackets, `[]` for
    /// scalars and `[index]` when elements nest, so Rack keeps each object together.
    private func element(of name: String, index: Int, nests: Bool) -> String {
        switch self {
        case .brackets: return nests ? "\(name)[\(index)]" : "\(name)[]"
        case .dotted: return "\(name)[\(index)]"
        }
    }

    /// A scalar as form text.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let string): return string
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let int): return String(int)
        default: return value.description
        }
    }
}
