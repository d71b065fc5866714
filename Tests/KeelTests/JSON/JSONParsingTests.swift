import Foundation
import Keel
import Testing

/// Parses `text`, expecting an error, and returns it.
private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
    do {
        let value = try JSONValue(parsing: text)
        Issue.record("Expected an error, parsed \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Parses `bytes`, expecting an error, and returns it.
private func parseError(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
    do {
        let value = try JSONValue(parsing: Data(bytes))
        Issue.record("Expected an error, parsed \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

struct JSONParsingValidInputTests {
    @Test func scalarsParseAtTopLevel() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: "true") == .bool(true))
        #expect(try JSONValue(parsing: "false") == .bool(false))
        #expect(try JSONValue(parsing: "42") == .int(42))
        #expect(try JSONValue(parsing: "\"x\"") == .string("x"))
        #expect(try JSONValue(parsing: " \t\r\n 7 \n") == .int(7))
    }

    @Test func nestedContainersParse() throws {
        let value = try JSONValue(parsing: #"{"a": [1, {"b": null}, []], "c": {}, "d": [[[]]]}"#)
        #expect(value == ["a": [1, ["b": nil], []], "c": [:], "d": [[[]]]])
    }

    @Test func whitespaceIsAllowedBetweenAllTokens() throws {
        let value = try JSONValue(parsing: "\r\n{ \"a\" :\t[ 1 ,\n2 ] , \"b\"\r:\rtrue }\n")
        #expect(value == ["a": [1, 2], "b": true])
    }

    @Test func objectsKeepKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"z": 1, "a": 2, "m": {"y": 1, "b": 2}}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value["m"]?.objectValue?.keys == ["y", "b"])
    }

    @Test func nestedObjectsGoUnderTheirOwnKey() throws {
        let value = try JSONValue(parsing: #"[{"id": 1, "author": {"name": "x", "id": 3}, "tags": ["a"]}]"#)
        #expect(value == [["id": 1, "author": ["name": "x", "id": 3], "tags": ["a"]]])
        #expect(value[0]?.objectValue?.keys == ["id", "author", "tags"])
    }

    @Test func repeatedKeysKeepFirstPositionAndLastValue() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test func aKeyRepeatedAmongManyKeysIsMerged() throws {
        for count in [3, 12, 13, 40, 100] {
            let members = (0..<count).map { #""k\#($0)": \#($0)"# } + [#""k1": "again""#]
            let object = try #require(try JSONValue(parsing: "{" + members.joined(separator: ",") + "}").objectValue)
            #expect(object.count == count)
            #expect(object["k1"] == "again")
            #expect(object.index(forKey: "k1") == 1)
        }
    }

    @Test func keysRepeatedAcrossManyObjectsStayCorrect() throws {
        let text = "[" + (0..<300).map { #"{"k\#($0 % 70)": \#($0), "v": "\#($0)"}"# }.joined(separator: ",") + "]"
        let value = try JSONValue(parsing: text)
        for index in 0..<300 {
            #expect(value[index] == ["k\(index % 70)": .int(index), "v": .string("\(index)")])
        }
    }

    @Test func objectsWithManyKeysParse() throws {
        let text = "{" + (0..<100).map { #""key\#($0)": \#($0)"# }.joined(separator: ",") + "}"
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(object.count == 100)
        #expect(object["key57"] == 57)
        #expect(object.keys.first == "key0")
        #expect(object.keys.last == "key99")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONValue(parsing: Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == [1])
        #expect(try JSONValue(parsing: "\u{FEFF}{\"a\": 1}") == ["a": 1])
    }

    @Test func dataStringAndRawBytesEntryPointsAgree() throws {
        let text = #"{"title": "Dune", "tags": ["sf", "classic"], "year": 1965}"#
        let fromString = try JSONValue(parsing: text)
        let fromData = try JSONValue(parsing: Data(text.utf8))
        let fromBytes = try Array(text.utf8).withUnsafeBytes { try JSONValue.parse($0) }
        #expect(fromString == fromData)
        #expect(fromData == fromBytes)
    }

    @Test func emptyBufferIsUnexpectedEnd() throws {
        let error = [UInt8]().withUnsafeBytes { bytes in
            Result { () throws(JSONParseError) in try JSONValue.parse(bytes) }
        }
        #expect(throws: JSONParseError(kind: .unexpectedEnd, offset: 0, line: 1, column: 1)) { try error.get() }
    }
}

struct JSONParsingNumberTests {
    @Test func integersBecomeInt() throws {
        #expect(try JSONValue(parsing: "0") == .int(0))
        #expect(try JSONValue(parsing: "-17") == .int(-17))
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(.min))
        if case .int = try JSONValue(parsing: "123") {} else { Issue.record("123 should be .int") }
    }

    @Test func negativeZeroBecomesIntZero() throws {
        let value = try JSONValue(parsing: "-0")
        guard case .int(0) = value else {
            Issue.record("-0 should be .int(0), got \(value)")
            return
        }
        let double = try JSONValue(parsing: "-0.0")
        guard case .double(let zero) = double else {
            Issue.record("-0.0 should be a double")
            return
        }
        #expect(zero == 0 && zero.sign == .minus)
    }

    @Test func integersOutsideIntBecomeDouble() throws {
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try JSONValue(parsing: "-9223372036854775809") == .double(-9_223_372_036_854_775_809.0))
        let huge = try JSONValue(parsing: "123456789012345678901234567890")
        guard case .double(let double) = huge else {
            Issue.record("a huge integer should be .double")
            return
        }
        #expect(double == 1.2345678901234568e29)
    }

    @Test func fractionsAndExponentsBecomeDouble() throws {
        for (text, expected) in [
            ("0.1", 0.1), ("-2.5", -2.5), ("1e3", 1000.0), ("1E3", 1000.0), ("1e+3", 1000.0),
            ("25e-1", 2.5), ("1.0", 1.0), ("0e0", 0.0), ("123.456e2", 12345.6), ("-0.000001", -0.000001),
        ] {
            let value = try JSONValue(parsing: text)
            guard case .double(let double) = value else {
                Issue.record("\(text) should be .double, got \(value)")
                continue
            }
            #expect(double == expected, "\(text)")
        }
    }

    @Test func doublesAreCorrectlyRounded() throws {
        let texts = [
            "0.1", "0.2", "0.3", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
            "9007199254740993", "0.30000000000000004", "3.141592653589793238462643383279",
            "1.00000000000000011102230246251565404236316680908203125", "7.038531e-26",
            "123456789012345678901234567890.123e-10", "1e23", "8.41e21", "5e-324", "2.4703282292062327e-324",
        ]
        for text in texts {
            let value = try JSONValue(parsing: text)
            #expect(value.doubleValue == Double(text), "\(text)")
        }
    }

    @Test func underflowBecomesZero() throws {
        #expect(try JSONValue(parsing: "1e-400") == .double(0))
        #expect(try JSONValue(parsing: "-1e-99999999999") == .double(-0.0))
    }

    @Test func numbersTooLargeForDoubleAreInvalid() {
        let error = parseError("[1e400]")
        #expect(error?.kind == .invalidNumber)
        #expect(error?.offset == 1)
        #expect(parseError("-1e99999999999999")?.kind == .invalidNumber)
    }
}

struct JSONParsingStringTests {
    @Test func escapesDecode() throws {
        let value = try JSONValue(parsing: #""\" \\ \/ \b \f \n \r \t""#)
        #expect(value == .string("\" \\ / \u{8} \u{C} \n \r \t"))
    }

    @Test func unicodeEscapesDecode() throws {
        #expect(try JSONValue(parsing: #""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
    }

    @Test func surrogatePairsDecodeToOneScalar() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue(parsing: #""x\uD834\uDD1Ey""#) == .string("x𝄞y"))
    }

    @Test func loneSurrogatesBecomeReplacementCharacters() throws {
        #expect(try JSONValue(parsing: #""\ud800""#) == .string("\u{FFFD}"))
        #expect(try JSONValue(parsing: #""\udc00x""#) == .string("\u{FFFD}x"))
        #expect(try JSONValue(parsing: #""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONValue(parsing: #""\ud800\ud800\udc00""#) == .string("\u{FFFD}𐀀"))
    }

    @Test func rawUTF8IsKept() throws {
        #expect(try JSONValue(parsing: "\"héllo wörld 中文 😀\"") == .string("héllo wörld 中文 😀"))
        #expect(try JSONValue(parsing: "{\"clé\": \"valeur\"}") == ["clé": "valeur"])
    }

    @Test func escapedAndNonASCIIKeysWork() throws {
        let value = try JSONValue(parsing: #"{"a\nb": 1, "é": 2, "\u0061": 3}"#)
        #expect(value == ["a\nb": 1, "é": 2, "a": 3])
    }

    @Test func deleteAndLineSeparatorNeedNoEscape() throws {
        #expect(try JSONValue(parsing: "\"\u{7F}\u{2028}\"") == .string("\u{7F}\u{2028}"))
    }
}

struct JSONParsingErrorTests {
    @Test func unexpectedEnd() {
        for (text, offset) in [
            ("", 0), ("   ", 3), ("[1,", 3), ("{\"a\"", 4), ("{\"a\":", 5), ("\"abc", 4), ("tru", 3), ("[", 1),
            ("\"\\u12", 5), ("-", 1), ("1.", 2), ("1e", 2),
        ] {
            let error = parseError(text)
            #expect(error?.kind == .unexpectedEnd, "\(text)")
            #expect(error?.offset == offset, "\(text)")
        }
    }

    @Test func unexpectedCharacterNamesTheCharacter() {
        for (text, character, offset) in [
            ("[1,]", "]", 3), ("[1 2]", "2", 3), ("{'a': 1}", "'", 1), ("// comment", "/", 0), ("NaN", "N", 0),
            ("Infinity", "I", 0), ("{\"a\" 1}", "1", 5), ("{\"a\": 1,}", "}", 8), ("{1: 2}", "1", 1),
            ("trux", "x", 3), ("[.5]", ".", 1), ("é", "é", 0), ("[+1]", "+", 1), ("{\"a\":1]", "]", 6),
        ] as [(String, Character, Int)] {
            let error = parseError(text)
            #expect(error?.kind == .unexpectedCharacter(character), "\(text)")
            #expect(error?.offset == offset, "\(text)")
        }
    }

    @Test func invalidNumbers() {
        for (text, offset) in [("01", 1), ("-01", 2), ("1.e5", 2), ("1e+x", 3), ("-a", 1), ("[1.]", 3), ("00", 1)] {
            let error = parseError(text)
            #expect(error?.kind == .invalidNumber, "\(text)")
            #expect(error?.offset == offset, "\(text)")
        }
    }

    @Test func invalidEscape() {
        let error = parseError(#"["ab\x"]"#)
        #expect(error?.kind == .invalidEscape)
        #expect(error?.offset == 5)
        #expect(parseError(#""\'""#)?.kind == .invalidEscape)
        #expect(parseError(#""\U0041""#)?.kind == .invalidEscape)
    }

    @Test func invalidUnicodeEscape() {
        let error = parseError(#""\u12G4""#)
        #expect(error?.kind == .invalidUnicode)
        #expect(error?.offset == 5)
        #expect(parseError(#""\ud83d\uZZZZ""#)?.kind == .invalidUnicode)
    }

    @Test func controlCharactersInStrings() {
        for text in ["\"a\nb\"", "\"\t\"", "\"\u{0}\"", "\"\u{1F}\""] {
            let error = parseError(text)
            #expect(error?.kind == .controlCharacterInString, "\(text.debugDescription)")
        }
        #expect(parseError("{\"a\nb\": 1}")?.offset == 3)
    }

    @Test func trailingContent() {
        for (text, offset) in [("1 2", 2), ("{} x", 3), ("[1]]", 3), ("null,", 4), ("\"a\"\"b\"", 3)] {
            let error = parseError(text)
            #expect(error?.kind == .trailingContent, "\(text)")
            #expect(error?.offset == offset, "\(text)")
        }
    }

    @Test func invalidUTF8() {
        let cases: [([UInt8], Int)] = [
            ([0x22, 0xFF, 0x22], 1),  // never valid
            ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 1),  // overlong three-byte form
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // past U+10FFFF
            ([0x22, 0x61, 0xE2, 0x82, 0x22], 2),  // truncated sequence
            ([0x22, 0x80, 0x22], 1),  // lone continuation byte
            ([0x5B, 0xFE, 0x5D], 1),  // outside a string
            ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3),  // after an escape
        ]
        for (bytes, offset) in cases {
            let error = parseError(bytes: bytes)
            #expect(error?.kind == .invalidUTF8, "\(bytes)")
            #expect(error?.offset == offset, "\(bytes)")
        }
    }

    @Test func errorsReportLineAndColumn() {
        let error = parseError("{\n  \"a\": 1,\n  \"b\": tru\n}")
        #expect(error?.kind == .unexpectedCharacter("\n"))
        #expect(error?.line == 3)
        #expect(error?.column == 11)

        let crlf = parseError("[\r\n1,\r\n x]")
        #expect(crlf?.line == 3)
        #expect(crlf?.column == 2)
        #expect(crlf?.offset == 8)
    }

    @Test func columnsCountUnicodeScalarsNotBytes() {
        // [ " é 😀 " , space x: the x is byte 11 but the eighth scalar.
        let error = parseError("[\"é😀\", x]")
        #expect(error?.offset == 11)
        #expect(error?.column == 8)
    }

    @Test func byteOrderMarkDoesNotCountAsAColumn() {
        let error = parseError(bytes: [0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
        #expect(error?.offset == 4)
        #expect(error?.column == 2)
    }

    @Test func descriptionNamesProblemAndPosition() {
        #expect(parseError("{\n\n  \"a\": x}")?.description == "Unexpected character 'x' at line 3, column 8")
        #expect(parseError("[1,")?.description == "Unexpected end of input at line 1, column 4")
        #expect(parseError("\"a\tb\"")?.description == "Unescaped control character in string at line 1, column 3")
        #expect(parseError("[1,\n]")?.description == "Unexpected character ']' at line 2, column 1")
        #expect(parseError("[\n\t\u{7}]")?.description == "Unexpected character U+0007 at line 2, column 2")
        #expect(parseError("1 2")?.description == "Unexpected content after the JSON value at line 1, column 3")
        #expect(
            parseError(String(repeating: "[", count: 600))?.description
                == "Arrays and objects nested deeper than 512 levels at line 1, column 513"
        )
    }
}

struct JSONParsingDepthTests {
    @Test func nestingUpToTheLimitParses() throws {
        let depth = JSONValue.maximumParsingDepth
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        var value = try JSONValue(parsing: text)
        var levels = 0
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
        #expect(value == 1)
    }

    @Test func nestingPastTheLimitThrowsInsteadOfCrashing() {
        let depth = JSONValue.maximumParsingDepth + 1
        let error = parseError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(error?.kind == .tooDeeplyNested)
        #expect(error?.offset == JSONValue.maximumParsingDepth)
        #expect(parseError(String(repeating: "{\"a\":", count: 100_000))?.kind == .tooDeeplyNested)
        #expect(parseError(String(repeating: "[", count: 1_000_000))?.kind == .tooDeeplyNested)
    }

    @Test func siblingContainersDoNotAddUpToTheLimit() throws {
        let text = "[" + String(repeating: "[],{},", count: 10_000) + "1]"
        #expect(try JSONValue(parsing: text).arrayValue?.count == 20_001)
    }
}

struct JSONParsingRoundTripTests {
    @Test(arguments: [
        JSONWriteOptions(), .prettyPrinted, .sortedKeys, .escapingSlashes, [.prettyPrinted, .sortedKeys],
    ])
    func parsingWrittenValuesGivesThemBack(options: JSONWriteOptions) throws {
        var generator = JSONValueGenerator(seed: 2024)
        for _ in 0..<300 {
            let value = generator.value()
            let text = try value.jsonString(options: options)
            let reparsed = try JSONValue(parsing: text)
            #expect(reparsed == value, "\(text)")
            #expect(try JSONValue(parsing: value.jsonData(options: options)) == value)
        }
    }

    @Test func objectKeyOrderSurvivesARoundTrip() throws {
        var generator = JSONValueGenerator(seed: 99)
        for _ in 0..<100 {
            guard case .object(let object) = generator.value(depth: 3) else { continue }
            let reparsed = try JSONValue(parsing: object.jsonString())
            #expect(reparsed.objectValue?.keys == object.keys)
        }
    }

    @Test func doublesSurviveARoundTripBitForBit() throws {
        var generator = JSONValueGenerator(seed: 5)
        for _ in 0..<2000 {
            let double = Double(bitPattern: generator.next())
            guard double.isFinite, double.magnitude > 9_007_199_254_740_992 || Int(exactly: double) == nil else {
                continue
            }
            let reparsed = try JSONValue(parsing: JSONValue.double(double).jsonString())
            #expect(reparsed.doubleValue?.bitPattern == double.bitPattern, "\(double)")
        }
    }
}

struct JSONParseErrorDocumentationTests {
    @Test func documentedExamplesHold() {
        #expect(parseError("[1,]")?.offset == 3)
        #expect(parseError("[\n1,\nx]")?.line == 3)
        #expect(parseError("[\"é\", x]")?.column == 7)
        #expect(parseError("1 2")?.kind == .trailingContent)
        #expect(parseError("[1, 2,]")?.description == "Unexpected character ']' at line 1, column 7")
    }
}
