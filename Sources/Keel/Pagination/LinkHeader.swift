import Foundation

/// The links of an RFC 8288 `Link` header by relation type:
/// `<https://api.example.com/notes?page=2>; rel="next"` → `["next": "https://…"]`.
///
/// A target runs from `<` to `>`, commas and semicolons included, and a quoted parameter
/// value (`title="a, b; c"`) is read whole, so neither ends a link early.
package enum LinkHeader {
    package static func links(in header: String?) -> [String: String] {
        guard let header else { return [:] }
        var links: [String: String] = [:]
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let url = String(rest[rest.index(after: open)..<close])
            let parameters: [String: String]
            (parameters, rest) = parameterList(after: rest[rest.index(after: close)...])
            for relation in (parameters["rel"] ?? "").split(separator: " ") { links[relation.lowercased()] = url }
        }
        return links
    }

    /// The `;`-separated parameters of one link (names lowercased, quotes removed) and what
    /// follows the comma that ends the link.
    private static func parameterList(after text: Substring) -> ([String: String], Substring) {
        var parameters: [String: String] = [:]
        var current = ""
        var quoted = false
        func finishParameter() {
            let pair = current.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 {
                parameters[pair[0].lowercased()] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            current = ""
        }
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            switch character {
            case "\"":
                quoted.toggle()
                current.append(character)
            case ";" where !quoted:
                finishParameter()
            case "," where !quoted:
                finishParameter()
                return (parameters, text[index...])
            default:
                current.append(character)
            }
        }
        finishParameter()
        return (parameters, text[text.endIndex...])
    }
}
