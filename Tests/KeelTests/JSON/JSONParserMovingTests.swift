import Keel
import Testing

/// The parser moves each finished key and value into its container and reads its key cache
/// through pointers: the keys and values end up under the right containers, keys of the
/// same length that share a cache slot stay apart, and a wrong closing bracket is still an
/// error.
struct JSONParserMovingTests {
    @Test func keysAndValuesGoBackToTheirParentsAfterNestedContainersClose() throws {
        let text = #"{"outer":{"inner":[{"x":1},[2,{"y":"z"}]],"after":true},"next":[[],{}],"last":null}"#
        let expected: JSONValue = [
            "outer": [
                "inner": [["x": 1], [2, ["y": "z"]]],
                "after": true,
            ],
            "next": [[], [:]],
            "last": nil,
        ]
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test func sameLengthKeysThatShareCacheSlotsStayDistinct() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let keys = letters.flatMap { first in letters.map { first + $0 } }
        let object = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        let parsed = try JSONValue(parsing: "[" + [object, object].joined(separator: ",") + "]")
        let objects = try #require(parsed.arrayValue)
        #expect(objects.count == 2)
        for element in objects {
            let members = try #require(element.objectValue)
            #expect(Array(members.keys) == keys)
            for (offset, key) in keys.enumerated() { #expect(members[key] == .int(offset)) }
        }
    }

    @Test func aKeyRepeatedAfterANestedObjectKeepsTheLastValue() throws {
        let parsed = try JSONValue(parsing: #"{"a":{"a":1},"b":2,"a":3}"#)
        let members = try #require(parsed.objectValue)
        #expect(Array(members.keys) == ["a", "b"])
        #expect(members["a"] == 3)
    }

    @Test func aClosingBracketOfTheOtherKindIsAnError() throws {
        for text in [#"{"a":1]"#, "[1}", #"[{"a":[1}]}"#] {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        }
    }
}
