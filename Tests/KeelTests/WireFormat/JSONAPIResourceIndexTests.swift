import Testing

@testable import Keel

/// The index a JSON:API reader finds linked resources in: ASCII identities in its own hash
/// table, others in a dictionary, repeats merged, and growth past its first size.
struct JSONAPIResourceIndexTests {
    private typealias Key = JSONAPIResourceIndex.Key

    private static func resource(_ type: String, _ id: String, _ name: String) -> JSONObject {
        ["type": .string(type), "id": .string(id), "attributes": ["name": .string(name)]]
    }

    private static func keepFirst(_ first: JSONObject, _: JSONObject) -> JSONObject { first }

    @Test func findsEveryResourceAfterGrowingPastItsCapacity() {
        var index = JSONAPIResourceIndex(capacity: 2)
        for id in 0..<500 {
            index.add(
                Self.resource("people", String(id), "P\(id)"),
                for: Key(type: "people", id: String(id)),
                merge: Self.keepFirst
            )
        }

        for id in 0..<500 {
            #expect(
                index.resource(for: Key(type: "people", id: String(id)))?["attributes"]?["name"] == .string("P\(id)")
            )
        }
        #expect(index.resource(for: Key(type: "people", id: "500")) == nil)
        #expect(index.resource(for: Key(type: "articles", id: "1")) == nil)
    }

    @Test func aTypeAndAnIDSplitElsewhereAreTwoResources() {
        var index = JSONAPIResourceIndex(capacity: 2)
        index.add(Self.resource("ab", "c", "first"), for: Key(type: "ab", id: "c"), merge: Self.keepFirst)
        index.add(Self.resource("a", "bc", "second"), for: Key(type: "a", id: "bc"), merge: Self.keepFirst)

        #expect(index.resource(for: Key(type: "ab", id: "c"))?["attributes"]?["name"] == "first")
        #expect(index.resource(for: Key(type: "a", id: "bc"))?["attributes"]?["name"] == "second")
    }

    @Test func nonASCIIIdentitiesAreFoundByCanonicalEquivalence() {
        var index = JSONAPIResourceIndex(capacity: 4)
        // "é" precomposed, looked up decomposed: one Swift string.
        index.add(
            Self.resource("personnes", "caf\u{E9}", "Café"),
            for: Key(type: "personnes", id: "caf\u{E9}"),
            merge: Self.keepFirst
        )
        index.add(Self.resource("\u{1F4DA}", "1", "Books"), for: Key(type: "\u{1F4DA}", id: "1"), merge: Self.keepFirst)

        #expect(index.resource(for: Key(type: "personnes", id: "cafe\u{301}"))?["attributes"]?["name"] == "Café")
        #expect(index.resource(for: Key(type: "\u{1F4DA}", id: "1"))?["attributes"]?["name"] == "Books")
        #expect(index.resource(for: Key(type: "personnes", id: "cafe")) == nil)
    }

    @Test func aRepeatedIdentityIsMergedIntoTheFirst() {
        for type in ["people", "pe\u{301}ople"] {
            var index = JSONAPIResourceIndex(capacity: 4)
            let key = Key(type: type, id: "7")
            index.add(Self.resource(type, "7", "Ada"), for: key, merge: Self.keepFirst)
            index.add(Self.resource(type, "7", "Grace"), for: key) { first, second in
                var merged = first
                merged["meta"] = second["attributes"] ?? .null
                return merged
            }

            #expect(index.resource(for: key)?["attributes"]?["name"] == "Ada")
            #expect(index.resource(for: key)?["meta"]?["name"] == "Grace")
        }
    }

    @Test func anIdentityHeldInItsOwnStorageIsTheSmallIdentityOfTheSameText() throws {
        var held = String()
        held.reserveCapacity(64)
        held += "people"
        try #require(!StringIdentity.isSmallASCII(held))
        var index = JSONAPIResourceIndex(capacity: 2)
        index.add(Self.resource("people", "7", "Ada"), for: Key(type: "people", id: "7"), merge: Self.keepFirst)
        index.add(Self.resource(held, "8", "Grace"), for: Key(type: held, id: "8"), merge: Self.keepFirst)

        #expect(Key(type: held, id: "7") == Key(type: "people", id: "7"))
        #expect(index.resource(for: Key(type: held, id: "7"))?["attributes"]?["name"] == "Ada")
        #expect(index.resource(for: Key(type: "people", id: "8"))?["attributes"]?["name"] == "Grace")
        #expect(Key(type: "taxonomy_term--tags", id: "1") == Key(type: "taxonomy_term--tags", id: "1"))
        #expect(Key(type: "people", id: "1") != Key(type: "people", id: "10"))
    }

    @Test func identitiesLongerThanASmallStringAreFoundToo() {
        var index = JSONAPIResourceIndex(capacity: 2)
        let long = "taxonomy_term--tags"
        let longID = "0123456789abcdef0123"
        index.add(Self.resource(long, "1", "swift"), for: Key(type: long, id: "1"), merge: Self.keepFirst)
        index.add(Self.resource("people", longID, "Ada"), for: Key(type: "people", id: longID), merge: Self.keepFirst)

        #expect(index.resource(for: Key(type: long, id: "1"))?["attributes"]?["name"] == "swift")
        #expect(index.resource(for: Key(type: "people", id: longID))?["attributes"]?["name"] == "Ada")
        #expect(index.resource(for: Key(type: long, id: "2")) == nil)
    }

    @Test func smallAndLongIdentitiesAreEqualAndHashedByTheirText() {
        let long = "taxonomy_term--tags"
        let keys = [
            Key(type: "people", id: "1"), Key(type: long, id: "1"), Key(type: "people", id: "1234567890123456"),
            Key(type: "caf\u{E9}", id: "1"), Key(type: "", id: ""),
        ]
        // Each key equals only itself among them, and equal keys hash alike.
        for (position, key) in keys.enumerated() {
            for (other, otherKey) in keys.enumerated() { #expect((key == otherKey) == (position == other)) }
        }
        #expect(Set(keys).count == keys.count)
        #expect(Set(keys + [Key(type: "cafe\u{301}", id: "1"), Key(type: String(long), id: "1")]).count == keys.count)
        #expect(Key(type: long, id: "1").type == long)
        #expect(Key(type: "people", id: "1").type == "people")
        #expect(Key(type: "people", id: "1") != Key(type: "peoplf", id: "1"))
    }

    @Test func anIDReadsAsAnIntegerExactlyWhenItIsACanonicalDecimal() {
        var held = String()
        held.reserveCapacity(64)
        held += "42"
        let cases: [(String, JSONValue)] = [
            ("0", 0), ("7", 7), ("42", 42), ("123456789012345", 123_456_789_012_345),
            ("1234567890123456", 1_234_567_890_123_456), ("9223372036854775807", .int(Int.max)),
            ("9223372036854775808", "9223372036854775808"), ("07", "07"), ("00", "00"), ("-1", "-1"),
            ("+1", "+1"), ("", ""), ("1a", "1a"), ("a1", "a1"), (" 1", " 1"), ("1/", "1/"), ("1:", "1:"),
            (held, 42), ("999999999999999", 999_999_999_999_999), ("12345678:", "12345678:"),
            ("123456789/", "123456789/"), ("12345678901234a", "12345678901234a"), ("01234567890", "01234567890"),
            ("1", 1), ("9", 9), ("/", "/"), (":", ":"),
        ]
        for (text, expected) in cases {
            #expect(JSONAPIFormat.appID(.string(text)) == expected, "\(text)")
        }
        #expect(JSONAPIFormat.appID(7) == 7)
        #expect(JSONAPIFormat.appID(.null) == .null)
    }
}
