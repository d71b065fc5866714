import Foundation

/// Converts keys between camel case and snake case, with the same rules as Foundation's
/// `JSONEncoder` and `JSONDecoder`.
enum JSONKeyConversion {
    /// `myURLProperty` → `my_url_property`.
    ///
    /// Words split where a lowercase letter is followed by an uppercase one, and before the
    /// last capital of a run of capitals that is followed by a lowercase letter. Leading and
    /// trailing underscores are kept; the result is lowercased.
    static func snakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        let scalars = key.unicodeScalars
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = scalars.index(after: wordStart)..<key.endIndex

        while let upper = scalars[searchRange].firstIndex(where: isUppercase) {
            words.append(wordStart..<upper)
            searchRange = upper..<searchRange.upperBound
            guard let lower = scalars[searchRange].firstIndex(where: isLowercase) else {
                // No more lowercase letters: the rest is one word.
                wordStart = searchRange.lowerBound
                break
            }
            if lower == scalars.index(after: upper) {
                // One capital followed by lowercase letters: a word starts at the capital.
                wordStart = upper
            } else {
                // A run of capitals: they form a word, except the last, which starts the next.
                let beforeLower = scalars.index(before: lower)
                words.append(upper..<beforeLower)
                wordStart = beforeLower
            }
            searchRange = scalars.index(after: lower)..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// `my_url_property` → `myUrlProperty`.
    ///
    /// The first word is lowercased and the others capitalized; a key without inner
    /// underscores is kept as is. Leading and trailing underscores are kept.
    static func camelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first, key[last] == "_" { key.formIndex(before: &last) }
        let body = key[first...last]
        let components = body.split(separator: "_")
        let joined: String
        if components.count == 1 {
            joined = String(body)
        } else {
            joined = components.enumerated().map { index, word in
                index == 0 ? word.lowercased() : word.capitalized
            }.joined()
        }
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
