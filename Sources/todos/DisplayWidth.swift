/// How many terminal columns text takes, so that columns line up after CJK text and emoji.
///
/// Each character (grapheme cluster) takes the width of its first scalar, so combining
/// marks add nothing to the letter they modify: East Asian Wide and Fullwidth characters
/// (`お`, `漢`, `한`, `Ａ`) and emoji shown as emoji (`🍵`, `❤️`, `👍🏽`, `🇯🇵`) take two
/// columns; a mark or format character on its own (U+0301, a zero-width space) takes none;
/// everything else takes one.
///
/// ```
/// DisplayWidth.of("Tea")   // 3
/// DisplayWidth.of("お茶")  // 4
/// ```
enum DisplayWidth {
    /// The columns a string takes in a terminal.
    ///
    /// - Complexity: O(*n*) in the length of the text.
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    /// The columns one character takes in a terminal: 0, 1 or 2.
    private static func columns(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        // U+FE0F asks for the emoji form of a character that is text by default, as in ❤️.
        if properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return isWide(first.value) ? 2 : 1
        }
    }

    /// Whether a scalar is East Asian Wide or Fullwidth (Unicode's EastAsianWidth.txt, by
    /// block; the wide emoji are covered by their emoji presentation).
    private static func isWide(_ value: UInt32) -> Bool {
        wideRanges.contains { $0.contains(value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0xFE10...0xFE19,  // Vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // Fullwidth forms
        0xFFE0...0xFFE6,  // Fullwidth signs
        0x16FE0...0x16FE4,  // Ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // Enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK Unified Ideographs Extensions B and later
    ]
}
