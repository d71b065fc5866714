import Foundation

/// A one-line summary of an HTML error page (Rails', Django's, a proxy's): its first heading,
/// else its title, then the first line of its first `<pre>` (where Django's debug page shows
/// the exception), with tags dropped, entities decoded and whitespace collapsed.
///
/// NSRails' `succinctErrorMessages`: an error's description reads `The server answered 500:
/// Server Error (500)` rather than a page of markup.
enum ErrorPageSummary {
    /// The longest summary, in characters; a longer one is cut and ends with `…`.
    static let maximumLength = 160

    /// The summary of `text`, or `nil` when it is not an HTML page or has no heading, title or
    /// `<pre>` text.
    static func summary(of text: String) -> String? {
        guard isHTML(text) else { return nil }
        let heading = element("h1", in: text) ?? element("title", in: text)
        let detail = element("pre", in: text)?.split(whereSeparator: \.isNewline).first.map(String.init)
        let parts = [heading, detail].compactMap { $0.map(collapsed) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        let joined = parts.joined(separator: ": ")
        return joined.count > maximumLength ? joined.prefix(maximumLength - 1) + "…" : joined
    }

    /// Whether the text is markup: it starts with `<` and has an `<html`, `<head`, `<title`,
    /// `<body` or `<h1` tag.
    private static func isHTML(_ text: String) -> Bool {
        guard text.drop(while: \.isWhitespace).first == "<" else { return false }
        return ["<html", "<head", "<title", "<body", "<h1"].contains {
            text.range(of: $0, options: .caseInsensitive) != nil
        }
    }

    /// The text inside the first `<name …>…</name>`, its tags removed and entities decoded,
    /// lines kept.
    private static func element(_ name: String, in text: String) -> String? {
        var searchStart = text.startIndex
        while let open = text.range(of: "<\(name)", options: .caseInsensitive, range: searchStart..<text.endIndex) {
            searchStart = open.upperBound
            // `<h1>` or `<h1 class="…">`, not `<h10>` or `<header>`.
            guard open.upperBound < text.endIndex, " \t\r\n>".contains(text[open.upperBound]),
                let tagEnd = text[open.upperBound...].firstIndex(of: ">")
            else { continue }
            let contentStart = text.index(after: tagEnd)
            let close = text.range(of: "</\(name)", options: .caseInsensitive, range: contentStart..<text.endIndex)
            return decodingEntities(removingTags(text[contentStart..<(close?.lowerBound ?? text.endIndex)]))
        }
        return nil
    }

    /// The text with every `<…>` tag removed.
    private static func removingTags(_ html: Substring) -> String {
        var result = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" && inTag {
                inTag = false
            } else if !inTag {
                result.append(character)
            }
        }
        return result
    }

    private static let namedEntities: [Substring: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "middot": "·",
        "ndash": "–", "mdash": "—", "hellip": "…", "laquo": "«", "raquo": "»",
    ]

    /// The text with `&name;`, `&#NN;` and `&#xNN;` references replaced by their characters;
    /// an unknown reference stays as it is.
    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";"),
                let character = character(for: rest[afterAmpersand..<semicolon])
            else {
                result.append("&")
                rest = rest[afterAmpersand...]
                continue
            }
            result.append(character)
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// The character a reference's name (`amp`, `#39`, `#x27`) stands for.
    private static func character(for reference: Substring) -> Character? {
        guard reference.first == "#" else { return namedEntities[reference] }
        let digits = reference.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X"
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map(Character.init)
    }

    /// The text on one line, runs of whitespace made one space.
    private static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
