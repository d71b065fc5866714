import Foundation

/// Where a ``SyncRequest`` goes: a `URL`, or a relative path that is known to parse as one,
/// whose `URL` is made only when something asks for it.
///
/// A read by id (``IdentityMap/find(_:id:in:from:)``) names its record by path. Parsing that
/// path into a `URL` took 1.8 k of the 48 k instructions of a `Store.find` from `SQLiteSync`,
/// which answers the read in place from the path alone; a backend that asks for
/// ``SyncRequest/url`` gets the very `URL` that `URL(string:)` makes of the path.
enum RequestTarget: Sendable {
    /// A URL given whole.
    case url(URL)
    /// A relative path that ``init(validPath:)`` accepted, such as `/notes/7`.
    case path(String)

    /// A path target, when `URL(string:)` takes the path as a relative URL that is all path.
    ///
    /// That is so when the path starts with one `/` and every byte is one RFC 3986 allows in
    /// a path (unreserved, sub-delimiters, `:`, `@`, `/`, or `%` and two hexadecimal digits).
    /// `nil` for any other path, which the caller parses as before.
    init?(validPath path: String) {
        var text = path
        guard text.withUTF8(Self.isValidPath) else { return nil }
        self = .path(text)
    }

    /// The path of record `id` in `collection`, made and checked in one pass over the
    /// collection's bytes: `URLPath.join(collection, URLPath.encodeComponent(.int(id)))`, when
    /// the collection is a valid path (``init(validPath:)``), which makes the whole one valid;
    /// `nil` otherwise.
    static func recordPath(collection: String, id: Int) -> String? {
        var collection = collection
        return collection.withUTF8 { bytes -> String? in
            guard isValidPath(bytes) else { return nil }
            // A valid path is ASCII, so a last `/` is a character of its own and the id joins it.
            let slash = bytes[bytes.count - 1] != UInt8(ascii: "/")
            let count = bytes.count + (slash ? 1 : 0) + URLPath.decimalLength(id)
            return String(unsafeUninitializedCapacity: count) { buffer in
                let written = buffer.initialize(fromContentsOf: bytes)
                if slash { buffer[written] = UInt8(ascii: "/") }
                URLPath.writeDecimal(id, into: buffer, endingAt: count)
                return count
            }
        }
    }

    /// Whether the bytes are a path ``init(validPath:)`` takes: a `/` first but not two, and
    /// then only bytes a path allows as they are, or `%` and two hexadecimal digits.
    private static func isValidPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 0, bytes[0] == UInt8(ascii: "/"), bytes.count == 1 || bytes[1] != UInt8(ascii: "/")
        else { return false }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
                else { return false }
                index += 3
                continue
            }
            guard isPathByte(byte) else { return false }
            index += 1
        }
        return true
    }

    /// The URL: the one given, or the path parsed now.
    var url: URL {
        switch self {
        case .url(let url):
            return url
        case .path(let path):
            guard let url = URL(string: path) else {
                preconditionFailure("RequestTarget: \(path) was accepted as a path but is not a URL")
            }
            return url
        }
    }

    /// The URL's path with percent-encoding kept: a path target's own text, without parsing it.
    var percentEncodedPath: String {
        switch self {
        case .url(let url): url.path(percentEncoded: true)
        case .path(let path): path
        }
    }

    /// Whether RFC 3986 allows `byte` in a path as it is: unreserved (letters, digits,
    /// `-._~`), a sub-delimiter (`!$&'()*+,;=`), `:`, `@` or `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

extension RequestTarget: Hashable {
    /// Whether two targets name the same URL: two paths by their text (a valid path's URL keeps
    /// it as it is), anything else by its URL.
    static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
        if case .path(let left) = lhs, case .path(let right) = rhs { return left == right }
        return lhs.url == rhs.url
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(url)
    }
}
