import Foundation
import Keel
import Testing

struct JSONSerializationCompactTests {
    @Test func compactOutputHasNoWhitespace() throws {
        let value: JSONValue = ["a": [1, true, nil, "x"], "b": ["c": [:], "d": []]]
        #expect(try value.jsonString() == #"{"a":[1,true,null,"x"],"b":{"c":{},"d":[]}}"#)
    }

    @Test func scalarsAtTopLevel() throws {
        #expect(try JSONValue.null.jsonString() == "null")
        #expect(try JSONValue.bool(false).jsonString() == "false")
        #expect(try JSONValue.int(-12).jsonString() == "-12")
        #expect(try JSONValue.string("x").jsonString() == #""x""#)
    }

    @Test func keysAreWrittenInStoredOrder() throws {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        #expect(try object.jsonString() == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func dataAndStringAgree() throws {
        let value: JSONValue = ["text": "héllo 😀", "n": [1.5, -0.25]]
        #expect(try value.jsonData() == Data(value.jsonString().utf8))
        let object: JSONObject = ["b": 1, "a": "é"]
        #expect(try object.jsonData(options: .sortedKeys) == Data(object.jsonString(options: .sortedKeys).utf8))
    }
}

struct JSONSerializationEscapingTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() throws {
        let value = JSONValue.string("\"\\\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}")
        #expect(try value.jsonString() == #""\"\\\b\f\n\r\t\u0000\u0001\u001f""#)
    }

    @Test func slashesAreNotEscapedByDefault() throws {
        #expect(try JSONValue("a/b</script>").jsonString() == #""a/b</script>""#)
    }

    @Test func escapingSlashesOptionEscapesThem() throws {
        #expect(try JSONValue("a/b").jsonString(options: .escapingSlashes) == #""a\/b""#)
        #expect(try JSONValue(["a/b": "c/d"]).jsonString(options: .escapingSlashes) == #"{"a\/b":"c\/d"}"#)
    }

    @Test func nonASCIIIsWrittenAsUTF8() throws {
        let text = "é€中😀\u{7F}\u{2028}\u{FEFF}"
        #expect(try JSONValue(text).jsonString() == "\"\(text)\"")
        #expect(try Array(JSONValue(text).jsonData()) == Array("\"\(text)\"".utf8))
    }

    @Test func keysAreEscapedLikeValues() throws {
        #expect(try JSONValue(["a\"b\n": 1]).jsonString() == #"{"a\"b\n":1}"#)
    }

    @Test func bridgedAndSubstringBackedStringsAreEscaped() throws {
        let long = String(repeating: "ab\"", count: 50)
        let sliced = String(long.dropFirst(3))
        #expect(try JSONValue(sliced).jsonString() == "\"" + String(repeating: #"ab\""#, count: 49) + "\"")
        let bridged = NSString(string: "x\ny") as String
        #expect(try JSONValue(bridged).jsonString() == #""x\ny""#)
    }
}

struct JSONSerializationNumberTests {
    @Test func integersAreExact() throws {
        #expect(try JSONValue.int(.max).jsonString() == "9223372036854775807")
        #expect(try JSONValue.int(.min).jsonString() == "-9223372036854775808")
        #expect(try JSONValue.int(0).jsonString() == "0")
    }

    @Test func integralDoublesAreWrittenWithoutFraction() throws {
        #expect(try JSONValue.double(1.0).jsonString() == "1")
        #expect(try JSONValue.double(-42.0).jsonString() == "-42")
        #expect(try JSONValue.double(0.0).jsonString() == "0")
        #expect(try JSONValue.double(9_007_199_254_740_992).jsonString() == "9007199254740992")
    }

    @Test func negativeZeroKeepsItsSign() throws {
        #expect(try JSONValue.double(-0.0).jsonString() == "-0.0")
        #expect(try JSONValue([.double(-0.0), ["z": .double(-0.0)]]).jsonString() == #"[-0.0,{"z":-0.0}]"#)
        #expect(JSONValue.double(-0.0).description == "-0.0")
    }

    @Test func negativeZeroSurvivesARoundTrip() throws {
        let reparsed = try JSONValue(parsing: JSONValue.double(-0.0).jsonData())
        guard case .double(let double) = reparsed else {
            Issue.record("-0.0 should read back as a double, got \(reparsed)")
            return
        }
        #expect(double == 0 && double.sign == .minus)
    }

    @Test func negativeZeroEqualsAndHashesLikeZero() {
        #expect(JSONValue.double(-0.0) == .int(0))
        #expect(JSONValue.double(-0.0) == .double(0.0))
        #expect(Set<JSONValue>([.double(-0.0), .int(0), .double(0.0)]).count == 1)
    }

    @Test func otherDoublesUseTheShortestRoundTripForm() throws {
        #expect(try JSONValue.double(0.1).jsonString() == "0.1")
        #expect(try JSONValue.double(0.1 + 0.2).jsonString() == "0.30000000000000004")
        #expect(try JSONValue.double(-2.5).jsonString() == "-2.5")
        #expect(try JSONValue.double(1e300).jsonString() == "1e+300")
        #expect(try JSONValue.double(1e-7).jsonString() == "1e-07")
        #expect(try JSONValue.double(18_014_398_509_481_984).jsonString() == "1.8014398509481984e+16")
        #expect(try JSONValue.double(.leastNonzeroMagnitude).jsonString() == "5e-324")
    }

    @Test func nonFiniteDoublesAreWrittenAsNull() throws {
        #expect(try JSONValue.double(.nan).jsonString() == "null")
        #expect(try JSONValue.double(.infinity).jsonString() == "null")
        #expect(try JSONValue([.double(-.infinity), 1]).jsonString() == "[null,1]")
    }
}

struct JSONSerializationFormattingTests {
    @Test func prettyPrintingIndentsByTwoSpaces() throws {
        let value: JSONValue = [
            "title": "Dune", "tags": ["sf", "classic"], "author": ["name": "Frank", "born": 1920], "empty": [],
            "none": [:],
        ]
        let expected = """
            {
              "title": "Dune",
              "tags": [
                "sf",
                "classic"
              ],
              "author": {
                "name": "Frank",
                "born": 1920
              },
              "empty": [],
              "none": {}
            }
            """
        #expect(try value.jsonString(options: .prettyPrinted) == expected)
    }

    @Test func prettyPrintingNestedArrays() throws {
        let value: JSONValue = [[1, [2]], []]
        let expected = """
            [
              [
                1,
                [
                  2
                ]
              ],
              []
            ]
            """
        #expect(try value.jsonString(options: .prettyPrinted) == expected)
    }

    @Test func prettyPrintedScalarsAreUnchanged() throws {
        #expect(try JSONValue(3).jsonString(options: .prettyPrinted) == "3")
        #expect(try JSONValue([]).jsonString(options: .prettyPrinted) == "[]")
    }

    @Test func sortedKeysOrdersEveryObjectByCodePoint() throws {
        let value: JSONValue = ["b": ["z": 1, "a": 2], "a": [["d": 1, "c": 2]], "B": 0, "é": 3, "aa": 4]
        #expect(
            try value.jsonString(options: .sortedKeys) == #"{"B":0,"a":[{"c":2,"d":1}],"aa":4,"b":{"a":2,"z":1},"é":3}"#
        )
    }

    @Test func sortedAndPrettyCombine() throws {
        let object: JSONObject = ["b": 1, "a": [true]]
        let expected = """
            {
              "a": [
                true
              ],
              "b": 1
            }
            """
        #expect(try object.jsonString(options: [.prettyPrinted, .sortedKeys]) == expected)
    }

    @Test func optionsAreAnOptionSet() {
        let options: JSONWriteOptions = [.prettyPrinted, .sortedKeys]
        #expect(options.contains(.sortedKeys))
        #expect(!options.contains(.escapingSlashes))
        #expect(JSONWriteOptions(rawValue: options.rawValue) == options)
    }
}
