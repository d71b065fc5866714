/// A URL reference split into RFC 3986's five components, and resolved against a base the way
/// RFC 3986 §5.2 says (what RFC 8288 asks of a `Link` header's target).
///
/// Resolution works on the text, so it gives the same answer on every platform, and a base
/// without a scheme (`/notes?page=1`, from a backend that does not address by URL) resolves
/// as a path-absolute one would: `?page=2` against it is `/notes?page=2`.
struct URLReference: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits a reference as RFC 3986's Appendix B does.
    init(_ text: String) {
        var rest = Substring(text)
        if URLPath.hasScheme(text), let colon = rest.firstIndex(of: ":") {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    /// The reference as text.
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The target of `reference` with `base` as its base URI (RFC 3986 §5.2.2).
    ///
    /// ```swift
    /// URLReference.resolve("?page=2", against: "http://a/api/items")     // http://a/api/items?page=2
    /// URLReference.resolve("./x?page=2", against: "http://a/api/items")  // http://a/api/x?page=2
    /// ```
    static func resolve(_ reference: String, against base: String) -> String {
        let relative = URLReference(reference)
        let base = URLReference(base)
        var target = relative
        if relative.scheme != nil {
            target.path = removingDotSegments(relative.path)
        } else {
            if relative.authority != nil {
                target.path = removingDotSegments(relative.path)
            } else {
                if relative.path.isEmpty {
                    target.path = base.path
                    target.query = relative.query ?? base.query
                } else if relative.path.hasPrefix("/") {
                    target.path = removingDotSegments(relative.path)
                } else {
                    target.path = removingDotSegments(merged(relative.path, into: base))
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        return target.text
    }

    /// A relative path joined to the directory of the base's path (RFC 3986 §5.2.3).
    private static func merged(_ path: String, into base: URLReference) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// The path with its `.` and `..` segments applied (RFC 3986 §5.2.4).
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = input == "/.." ? "/" : input.dropFirst(3)
                output = String(output[..<(output.lastIndex(of: "/") ?? output.startIndex)])
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }
}
