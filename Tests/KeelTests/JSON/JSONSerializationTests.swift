import Foundation
import Keel
import Testing

struct JSONSerializationCompactTests {
    @Test func compactOutputHasNoWhitespace() {
        let value: JSONValue = ["a": [1, true, nil, "x"], "b": ["c": [:], "d": []]]
        #expect(value.jsonString() == #"{"a":[1,true,null,"x"],"b":{"c":{},"d":[]}}"#)
    }

    @Test func scalarsAtTopLevel() {
        #expect(JSONValue.null.jsonString() == "null")
        #expect(JSONValue.bool(false).jsonString() == "false")
        #expect(JSONValue.int(-12).jsonString() == "-12")
        #expect(JSONValue.string("x").jsonString() == #""x""#)
    }

    @Test func keysAreWrittenInStoredOrder() {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        #expect(object.jsonString() == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func dataAndStringAgree() {
        let value: JSONValue = ["text": "héllo 😀", "n": [1.5, -0.25]]
        #expect(value.jsonData() == Data(value.jsonString().utf8))
        let object: JSONObject = ["b": 1, "a": "é"]
        #expect(object.jsonData(options: .sortedKeys) == Data(object.jsonString(options: .sortedKeys).utf8))
    }
}

struct JSONSerializationEscapingTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        let value = JSONValue.string("\"\\\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}")
        #expect(value.jsonString() == #""\"\\\b\f\n\r\t\u0000\u0001\u001f""#)
    }

    @Test func slashesAreNotEscapedByDefault() {
        #expect(JSONValue("a/b</script>").jsonString() == #""a/b</script>""#)
    }

    @Test func escapingSlashesOptionEscapesThem() {
        #expect(JSONValue("a/b").jsonString(options: .escapingSlashes) == #""a\/b""#)
        #expect(JSONValue(["a/b": "c/d"]).jsonString(options: .escapingSlashes) == #"{"a\/b":"c\/d"}"#)
    }

    @Test func nonASCIIIsWrittenAsUTF8() {
        let text = "é€中😀\u{7F}\u{2028}\u{FEFF}"
        #expect(JSONValue(text).jsonString() == "\"\(text)\"")
        #expect(Array(JSONValue(text).jsonData()) == Array("\"\(text)\"".utf8))
    }

    @Test func keysAreEscapedLikeValues() {
        #expect(JSONValue(["a\"b\n": 1]).jsonString() == #"{"a\"b\n":1}"#)
    }

    @Test func bridgedAndSubstringBackedStringsAreEscaped() {
        let long = String(repeating: "ab\"", count: 50)
        let sliced = String(long.dropFirst(3))
        #expect(JSONValue(sliced).jsonString() == "\"" + String(repeating: #"ab\""#, count: 49) + "\"")
        let bridged = NSString(string: "x\ny") as String
        #expect(JSONValue(bridged).jsonString() == #""x\ny""#)
    }
}

struct JSONSerializationNumberTests {
    @Test func integersAreExact() {
        #expect(JSONValue.int(.max).jsonString() == "9223372036854775807")
        #expect(JSONValue.int(.min).jsonString() == "-9223372036854775808")
        #expect(JSONValue.int(0).jsonString() == "0")
    }

    @Test func integralDoublesAreWrittenWithoutFraction() {
        #expect(JSONValue.double(1.0).jsonString() == "1")
        #expect(JSONValue.double(-42.0).jsonString() == "-42")
        #expect(JSONValue.double(-0.0).jsonString() == "0")
        #expect(JSONValue.double(9_007_199_254_740_992).jsonString() == "9007199254740992")
    }

    @Test func otherDoublesUseTheShortestRoundTripForm() {
        #expect(JSONValue.double(0.1).jsonString() == "0.1")
        #expect(JSONValue.double(0.1 + 0.2).jsonString() == "0.30000000000000004")
        #expect(JSONValue.double(-2.5).jsonString() == "-2.5")
        #expect(JSONValue.double(1e300).jsonString() == "1e+300")
        #expect(JSONValue.double(1e-7).jsonString() == "1e-07")
        #expect(JSONValue.double(18_014_398_509_481_984).jsonString() == "1.8014398509481984e+16")
        #expect(JSONValue.double(.leastNonzeroMagnitude).jsonString() == "5e-324")
    }

    @Test func nonFiniteDoublesAreWrittenAsNull() {
        #expect(JSONValue.double(.nan).jsonString() == "null")
        #expect(JSONValue.double(.infinity).jsonString() == "null")
        #expect(JSONValue([.double(-.infinity), 1]).jsonString() == "[null,1]")
    }
}

struct JSONSerializationFormattingTests {
    @Test func prettyPrintingIndentsByTwoSpaces() {
        let value: JSONValue = ["title": "Dune", "tags": ["sf", "classic"], "author": ["name": "Frank", "born": 1920], "empty": [], "none": [:]]
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
        #expect(value.jsonString(options: .prettyPrinted) == expected)
    }

    @Test func prettyPrintingNestedArrays() {
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
        #expect(value.jsonString(options: .prettyPrinted) == expected)
    }

    @Test func prettyPrintedScalarsAreUnchanged() {
        #expect(JSONValue(3).jsonString(options: .prettyPrinted) == "3")
        #expect(JSONValue([]).jsonString(options: .prettyPrinted) == "[]")
    }

    @Test func sortedKeysOrdersEveryObjectByCodePoint() {
        let value: JSONValue = ["b": ["z": 1, "a": 2], "a": [["d": 1, "c": 2]], "B": 0, "é": 3, "aa": 4]
        #expect(value.jsonString(options: .sortedKeys) == #"{"B":0,"a":[{"c":2,"d":1}],"aa":4,"b":{"a":2,"z":1},"é":3}"#)
    }

    @Test func sortedAndPrettyCombine() {
        let object: JSONObject = ["b": 1, "a": [true]]
        let expected = """
            {
              "a": [
                true
              ],
              "b": 1
            }
            """
        #expect(object.jsonString(options: [.prettyPrinted, .sortedKeys]) == expected)
    }

    @Test func optionsAreAnOptionSet() {
        let options: JSONWriteOptions = [.prettyPrinted, .sortedKeys]
        #expect(options.contains(.sortedKeys))
        #expect(!options.contains(.escapingSlashes))
        #expect(JSONWriteOptions(rawValue: options.rawValue) == options)
    }
}
