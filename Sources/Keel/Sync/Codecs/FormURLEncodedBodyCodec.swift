public import Foundation

/// URL-encoded form bodies, `application/x-www-form-urlencoded`, in both directions.
///
/// Writing flattens a value into fields named in ``notation`` (``FormNotation/brackets``,
/// Rails' `note[title]`, by default) and percent-encodes them as ``RequestBody/urlEncoded(_:)``
/// does. Reading undoes either notation: `note[title]=Milk` and `address.city=Oslo` become
/// nested objects, `tags[]=a&tags[]=b` and `tags[0]=a&tags[1]=b` lists, and a name given more
/// than once (as Django's `QueryDict.urlencode()` writes a list) a list of its values. A form
/// has no types, so every value read is a string.
///
/// ```swift
/// let body = Data("note[title]=Milk&note[tags][]=a&note[tags][]=b".utf8)
/// try FormURLEncodedBodyCodec().decode(body, contentType: "application/x-www-form-urlencoded")
/// // ["note": ["title": "Milk", "tags": ["a", "b"]]]
/// ```
public struct FormURLEncodedBodyCodec: BodyCodec {
    /// How nested values are named when writing.
    public var notation: FormNotation

    /// Creates the codec.
    ///
    /// ```swift
    /// let django = FormURLEncodedBodyCodec(notation: .dotted)
    /// ```
    ///
    /// - Parameter notation: How nested values are named when writing.
    public init(notation: FormNotation = .brackets) {
        self.notation = notation
    }

    /// `application/x-www-form-urlencoded`.
    ///
    /// ```swift
    /// FormURLEncodedBodyCodec().mediaTypes  // ["application/x-www-form-urlencoded"]
    /// ```
    public var mediaTypes: [String] { ["application/x-www-form-urlencoded"] }

    /// The form fields of a value, URL-encoded.
    ///
    /// ```swift
    /// try FormURLEncodedBodyCodec().encode(["note": ["title": "Oat milk"]])  // note%5Btitle%5D=Oat+milk
    /// ```
    ///
    /// - Parameter value: The value, usually an object.
    /// - Returns: The encoded fields' ASCII bytes.
    /// - Complexity: O(*n*), where *n* is the length of the names and values.
    public func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
        Data(RequestBody.urlEncoded(notation.fields(for: value)).utf8)
    }

    /// The object a URL-encoded form describes.
    ///
    /// ```swift
    /// try FormURLEncodedBodyCodec().decode(Data("id=7&title=Oat+milk".utf8), contentType: "application/x-www-form-urlencoded")
    /// // ["id": "7", "title": "Oat milk"]
    /// ```
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: The answer's `Content-Type` (not used: forms are UTF-8).
    /// - Returns: An object whose values are strings, lists and objects.
    /// - Throws: ``BodyCodecError`` when the body is not UTF-8, has a malformed `%` escape or
    ///   a field name with an unclosed `[`, or uses one name both for a value and for a group
    ///   of fields.
    /// - Complexity: O(*n* × *d*), where *n* is the number of fields and *d* their nesting depth.
    public func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
        guard let text = String(data: data, encoding: .utf8) else {
            throw BodyCodecError("the form is not UTF-8")
        }
        var form = FormFields()
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.unescaped(parts[0])
            let value = try Self.unescaped(parts.count > 1 ? parts[1] : "")
            try form.add(value, named: name)
        }
        return form.value
    }

    /// A name or value with `+` read as a space and `%XX` escapes decoded.
    private static func unescaped(_ text: Substring) throws(BodyCodecError) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw BodyCodecError("the field \(text.prefix(60).debugDescription) has a malformed % escape")
        }
        return decoded
    }
}
