import Foundation

/// Where a ``SyncRequest`` goes: a `URL`, or a relative path that is known to parse as one,
/// whose `URL` is made only when something asks for it.
///
/// A read by id (``IdentityMap/find(_:id:in:from:)``) names its record by path. Parsing that
/// path into a `URL` cost a third of what `SQLiteSync` spends answering the read in place,
/// which needs only the path; a backend that asks for ``SyncRequest/url`` gets the very
/// `URL` that `URL(string:)` makes of the path.
enum RequestTarget: Sendable {
    /// A URL given whole.
    case url(URL)
    /// A relative path that ``init(validPath:)`` accepted, such as `/notes/7`.
    case path(String)

    /// A path target, when the path is one `URL(string:)` accepts as a relative URL whose
    /// percent-encoded path is the whole text: it starts with one `/`, and every byte is one
    /// RFC 3986 allows in a path (unreserved, sub-delimiters, `:`, `@`, `/`, or `%` and two
    /// hexadecimal digits). `nil` for any other path, which the caller parses as before.
    init?(validPath path: String) {
        var text = path
        let isValid = text.withUTF8 { bytes -> Bool in
            guard bytes.count > 0, bytes[0] == UInt8(ascii: "/"), bytes.count == 1 || bytes[1] != UInt8(ascii: "/")
            else { return false }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, Self.isHexDigit(bytes[index + 1]), Self.isHexDigit(bytes[index + 2])
                    else { return false }
                    index += 3
                    continue
                }
                guard Self.isPathByte(byte) else { return false }
                index += 1
            }
            return true
        }
        guard isValid else { return nil }
        self = .path(text)
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
