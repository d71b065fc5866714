import Foundation
import Keel
import Testing

/// Pins the writer's bytes while it copies pieces into reserved room: every piece (plain and
/// escaped strings, integers, doubles, literals) written at every offset around the
/// buffer's growth, against a plain reference writer.
struct JSONWriterBufferTests {
    /// Strings that need no escape, need some, or are nothing but escapes.
    private static let strings = [
        "", "a", "plain", "x\"y", "\\", "\"", "tab\there", "\u{1}\u{1f}", "é ü 🚀 日本", "a/b", "end\n",
        "\n" + String(repeating: "q", count: 40), String(repeating: "\"", count: 70),
        String(repeating: "é", count: 300), String(repeating: "ab\u{0}", count: 120),
    ]

    @Test(arguments: [JSONWriteOptions(), .escapingSlashes, .sortedKeys, .prettyPrinted])
    func everyPieceAtEveryOffsetAroundGrowthIsWrittenAsTheReferenceWrites(options: JSONWriteOptions) throws {
        for padding in 0..<600 {
            let pad = JSONValue.string(String(repeating: "p", count: padding))
            var pieces: [JSONValue] = Self.strings.map { .string($0) }
            pieces += [.int(.min), .int(.max), .int(0), .int(-7), .double(0.1), .double(-0.0), .double(1e300)]
            pieces += [.null, .bool(true), .bool(false), [], [:]]
            for piece in pieces {
                let value: JSONValue = [pad, piece, ["k\"\(padding)": piece, "z": pad]]
                #expect(try value.jsonString(options: options) == Self.reference(value, options: options))
            }
        }
    }

    @Test func generatedValuesAreWrittenAsTheReferenceWrites() throws {
        var generator = JSONValueGenerator(seed: 0x6475_7261_626C_6536)
        for _ in 0..<2_000 {
            let value = generator.value(depth: 5)
            #expect(try value.jsonString() == Self.reference(value, options: []))
            #expect(try value.jsonData() == Data(Self.reference(value, options: []).utf8))
        }
    }

    @Test func aLongStringGrowsTheBufferManyTimesOver() throws {
        let text = String(repeating: "0123456789\"", count: 10_000)
        let expected = "\"" + String(repeating: #"0123456789\""#, count: 10_000) + "\""
        #expect(try JSONValue.string(text).jsonString() == expected)
        #expect(try JSONValue.string(text.replacingOccurrences(of: "\"", with: "")).jsonString().utf8.count == 100_002)
    }

    // MARK: - Reference

    /// The text Keel's writer is meant to produce, written piece by piece into a `String`.
    private static func reference(_ value: JSONValue, options: JSONWriteOptions, depth: Int = 0) -> String {
        let isPretty = options.contains(.prettyPrinted)
        func newline(_ level: Int) -> String { isPretty ? "\n" + String(repeating: "  ", count: level) : "" }
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let int): return String(int)
        case .double(let double):
            if !double.isFinite { return "null" }
            if double == 0, double.sign == .minus { return "-0.0" }
            if double.magnitude <= 9_007_199_254_740_992, let int = Int(exactly: double) { return String(int) }
            return double.description
        case .string(let string): return quoted(string, options: options)
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            let members = elements.map { newline(depth + 1) + reference($0, options: options, depth: depth + 1) }
            return "[" + members.joined(separator: ",") + newline(depth) + "]"
        case .object(let object):
            guard !object.isEmpty else { return "{}" }
            var entries = Array(object)
            if options.contains(.sortedKeys) {
                entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            let members = entries.map { entry in
                newline(depth + 1) + quoted(entry.key, options: options) + (isPretty ? ": " : ":")
                    + reference(entry.value, options: options, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + newline(depth) + "}"
        }
    }

    private static func quoted(_ string: String, options: JSONWriteOptions) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/" where options.contains(.escapingSlashes): text += "\\/"
            case "\u{8}": text += "\\b"
            case "\u{c}": text += "\\f"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
