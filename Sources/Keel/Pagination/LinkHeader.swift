import Foundation

/// The links of an RFC 8288 `Link` header by relation type:
/// `<https://api.example.com/notes?page=2>; rel="next"` → `["next": "https://…"]`.
enum LinkHeader {
    static func links(in header: String?) -> [String: String] {
        guard let header else { return [:] }
        var links: [String: String] = [:]
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let url = String(target.dropFirst().dropLast())
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                for relation in relations.split(separator: " ") { links[relation.lowercased()] = url }
            }
        }
        return links
    }
}
