import Foundation
import Keel
import Testing

/// A codec for `application/x-test` that writes and reads a value's JSON text reversed, so a
/// test can tell it was used.
struct ReversedJSONCodec: BodyCodec {
    var mediaTypes: [String] { ["application/x-test", "+test"] }

    func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
        guard value.objectValue != nil else { throw BodyCodecError("only objects") }
        return Data(String(String(decoding: try JSONBodyCodec().encode(value), as: UTF8.self).reversed()).utf8)
    }

    func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
        try JSONBodyCodec().decode(Data(String(String(decoding: data, as: UTF8.self).reversed()).utf8), contentType: contentType)
    }
}

// MARK: - Choosing a codec

struct BodyCodecSelectionTests {
    @Test(arguments: [
        ("application/json", "application/json"),
        ("Application/JSON; charset=utf-8", "application/json"),
        ("text/json", "application/json"),
        ("application/problem+json", "application/json"),
        ("application/vnd.api+json; ext=bulk", "application/json"),
        ("application/x-www-form-urlencoded; charset=UTF-8", "application/x-www-form-urlencoded"),
        ("text/plain", "text/plain"),
    ])
    func theStandardCodecsMatchByMediaType(contentType: String, expected: String) {
        #expect(BodyCodecs.standard.codec(for: contentType)?.mediaTypes.first == expected)
    }

    @Test(arguments: ["text/html", "application/xml", "application/jsonp", "json", ""])
    func noStandardCodecReadsOtherTypes(contentType: String) {
        #expect(BodyCodecs.standard.codec(for: contentType) == nil)
    }

    @Test func aRegisteredCodecWinsForItsTypesAndLeadsAccept() {
        var codecs = BodyCodecs.standard
        codecs.register(ReversedJSONCodec())
        #expect(codecs.codec(for: "application/x-test")?.mediaTypes.first == "application/x-test")
        #expect(codecs.codec(for: "application/vnd.acme+test")?.mediaTypes.first == "application/x-test")
        #expect(codecs.codec(for: "application/json")?.mediaTypes.first == "application/json")
        #expect(codecs.acceptHeader == "application/x-test, application/json, application/x-www-form-urlencoded, text/plain")
    }

    @Test func anExactTypeWinsOverAnEarlierSuffix() {
        struct ProblemCodec: BodyCodec {
            var mediaTypes: [String] { ["application/problem+json"] }
            func encode(_ value: JSONValue) throws(BodyCodecError) -> Data { Data() }
            func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue { "problem" }
        }
        let codecs = BodyCodecs([JSONBodyCodec(), ProblemCodec()])
        #expect(codecs.codec(for: "application/problem+json")?.mediaTypes == ["application/problem+json"])
        #expect(codecs.codec(for: "application/merge-patch+json")?.mediaTypes.first == "application/json")
    }

    @Test func acceptListsEachCodecsFirstTypeOnce() {
        #expect(BodyCodecs.standard.acceptHeader == "application/json, application/x-www-form-urlencoded, text/plain")
        #expect(BodyCodecs([JSONBodyCodec(), JSONBodyCodec()]).acceptHeader == "application/json")
        #expect(BodyCodecs([]).acceptHeader.isEmpty)
    }
}

// MARK: - The built-in codecs

struct BuiltInBodyCodecTests {
    @Test func jsonRoundTrips() throws {
        let value: JSONValue = ["id": 1, "tags": ["a"], "done": false, "note": nil]
        let codec = JSONBodyCodec()
        #expect(try codec.decode(codec.encode(value), contentType: "application/json") == value)
    }

    @Test func brokenJSONIsATypedError() {
        #expect(throws: BodyCodecError.self) {
            try JSONBodyCodec().decode(Data("{oops".utf8), contentType: "application/json")
        }
    }

    @Test func plainTextCarriesScalarsOnly() throws {
        let codec = PlainTextBodyCodec()
        #expect(try codec.decode(Data("kD7x".utf8), contentType: "text/plain") == "kD7x")
        #expect(try codec.encode("hello") == Data("hello".utf8))
        #expect(try codec.encode(42) == Data("42".utf8))
        #expect(throws: BodyCodecError.self) { try codec.encode(["a": 1]) }
    }
}

// MARK: - Reading forms

struct FormURLEncodedDecodingTests {
    private func decode(_ text: String) throws(BodyCodecError) -> JSONValue {
        try FormURLEncodedBodyCodec().decode(Data(text.utf8), contentType: "application/x-www-form-urlencoded")
    }

    @Test func flatFieldsBecomeStrings() throws {
        #expect(try decode("id=7&title=Oat+milk+%26+honey&empty=&bare") == [
            "id": "7", "title": "Oat milk & honey", "empty": "", "bare": "",
        ])
    }

    @Test func bracketNamesNest() throws {
        #expect(
            try decode("note[title]=Milk&note[tags][]=a&note[tags][]=b&note[owner][name]=Ann") == [
                "note": ["title": "Milk", "tags": ["a", "b"], "owner": ["name": "Ann"]]
            ])
    }

    @Test func listsOfObjectsInBothNotations() throws {
        let expected: JSONValue = ["items": [["name": "a", "qty": "1"], ["name": "b", "qty": "2"]]]
        #expect(try decode("items[0][name]=a&items[0][qty]=1&items[1][name]=b&items[1][qty]=2") == expected)
        #expect(try decode("items[0]name=a&items[0]qty=1&items[1]name=b&items[1]qty=2") == expected)
        #expect(try decode("items[][name]=a&items[][qty]=1&items[][name]=b&items[][qty]=2") == expected)
    }

    @Test func dottedNamesNest() throws {
        #expect(try decode("address.city=Oslo&tags[0]=a&tags[1]=b") == ["address": ["city": "Oslo"], "tags": ["a", "b"]])
    }

    @Test func aRepeatedNameIsAList() throws {
        #expect(try decode("tag=a&tag=b&tag=c") == ["tag": ["a", "b", "c"]])
    }

    @Test func unicodeSurvives() throws {
        #expect(try decode("name=%C3%BC%E2%9C%93") == ["name": "ü✓"])
    }

    @Test func everyEncodedValueReadsBack() throws {
        let value: JSONValue = [
            "note": ["title": "a+b & c=d", "tags": ["x", "y"], "items": [["n": "1"], ["n": "2"]], "where": ["city": "Zürich"]]
        ]
        for notation in [FormNotation.brackets, .dotted] {
            let codec = FormURLEncodedBodyCodec(notation: notation)
            #expect(try codec.decode(codec.encode(value), contentType: "application/x-www-form-urlencoded") == value)
        }
    }

    @Test(arguments: [
        ("a[b=1", "unclosed ["),
        ("a=1&a[b]=2", "names a value where another field made a group"),
        ("a[b]=1&a=2", "names a value where another field made a group"),
        ("a[1]=x", "skips list index 0"),
        ("a=%ZZ", "malformed % escape"),
    ])
    func malformedFormsAreTypedErrors(text: String, reason: String) {
        #expect {
            try decode(text)
        } throws: { error in
            (error as? BodyCodecError)?.reason.contains(reason) == true
        }
    }

    @Test func aFormThatIsNotUTF8IsATypedError() {
        #expect(throws: BodyCodecError("the form is not UTF-8")) {
            try FormURLEncodedBodyCodec().decode(Data([0x61, 0x3D, 0xFF]), contentType: "application/x-www-form-urlencoded")
        }
    }
}
