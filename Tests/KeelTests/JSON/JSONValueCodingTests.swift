import Foundation
import Keel
import Testing

// MARK: - Fixtures

private struct Author: Codable, Equatable {
    var name: String
    var id: Int
}

private struct Note: Codable, Equatable {
    enum Status: String, Codable { case draft, published }

    var id: Int
    var title: String
    var done: Bool
    var rank: Double
    var tags: [String]
    var author: Author
    var status: Status
    var editor: Author?
    var scores: [String: Int]
}

private let sampleNote = Note(
    id: 7,
    title: "Dune",
    done: false,
    rank: 1.5,
    tags: ["sf", "classic"],
    author: Author(name: "Frank", id: 3),
    status: .published,
    editor: nil,
    scores: ["b": 2, "a": 1]
)

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
}

private class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

private final class Dog: Animal {
    var breed: String

    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case breed }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
}

/// Encodes as `[x, y, [label]]` through nested unkeyed and keyed containers.
private struct Point: Codable, Equatable {
    var x: Int
    var y: Int
    var label: String

    private enum LabelKeys: String, CodingKey { case text }

    init(x: Int, y: Int, label: String) {
        self.x = x
        self.y = y
        self.label = label
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Int.self)
        y = try container.decode(Int.self)
        var nested = try container.nestedUnkeyedContainer()
        let labelContainer = try nested.nestedContainer(keyedBy: LabelKeys.self)
        label = try labelContainer.decode(String.self, forKey: .text)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        var nested = container.nestedUnkeyedContainer()
        var labelContainer = nested.nestedContainer(keyedBy: LabelKeys.self)
        try labelContainer.encode(label, forKey: .text)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private func path(_ error: any Error) -> String {
    let context: DecodingError.Context?
    switch error as? DecodingError {
    case .typeMismatch(_, let value), .valueNotFound(_, let value), .keyNotFound(_, let value),
        .dataCorrupted(let value):
        context = value
    default:
        context = nil
    }
    return context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        ?? "not a DecodingError"
}

// MARK: - Round trips

struct JSONValueCodingRoundTripTests {
    @Test func nestedStructsRoundTrip() throws {
        let value = try JSONValueEncoder().encode(sampleNote)
        #expect(try JSONValueDecoder().decode(Note.self, from: value) == sampleNote)
    }

    @Test func encodedKeysFollowDeclarationOrder() throws {
        let value = try JSONValueEncoder().encode(sampleNote)
        #expect(value.objectValue?.keys == ["id", "title", "done", "rank", "tags", "author", "status", "scores"])
        #expect(value["author"]?.objectValue?.keys == ["name", "id"])
    }

    @Test func encodedValuesHaveTheExpectedKinds() throws {
        let value = try JSONValueEncoder().encode(sampleNote)
        #expect(
            value == [
                "id": 7, "title": "Dune", "done": false, "rank": 1.5, "tags": ["sf", "classic"],
                "author": ["name": "Frank", "id": 3], "status": "published", "scores": ["a": 1, "b": 2],
            ]
        )
        if case .int = value["id"] {} else { Issue.record("id should be .int") }
        if case .bool = value["done"] {} else { Issue.record("done should be .bool") }
    }

    @Test func stringKeyedDictionariesAreEncodedWithSortedKeys() throws {
        let value = try JSONValueEncoder().encode(["c": 3, "a": 1, "b": 2])
        #expect(value.objectValue?.keys == ["a", "b", "c"])
    }

    @Test func integerKeyedDictionariesBecomeObjects() throws {
        let value = try JSONValueEncoder().encode([1: "one"])
        #expect(value == ["1": "one"])
        #expect(try JSONValueDecoder().decode([Int: String].self, from: value) == [1: "one"])
    }

    @Test func enumsWithAssociatedValuesRoundTrip() throws {
        let shapes: [Shape] = [.circle(radius: 2), .rectangle(width: 1, height: 3), .point]
        let value = try JSONValueEncoder().encode(shapes)
        #expect(value[0] == ["circle": ["radius": 2]])
        #expect(try JSONValueDecoder().decode([Shape].self, from: value) == shapes)
    }

    @Test func superEncoderAndSuperDecoderNestUnderSuper() throws {
        let value = try JSONValueEncoder().encode(Dog(name: "Rex", breed: "Collie"))
        #expect(value == ["breed": "Collie", "super": ["name": "Rex"]])
        let dog = try JSONValueDecoder().decode(Dog.self, from: value)
        #expect(dog.name == "Rex")
        #expect(dog.breed == "Collie")
    }

    @Test func nestedUnkeyedAndKeyedContainersRoundTrip() throws {
        let point = Point(x: 1, y: -2, label: "origin")
        let value = try JSONValueEncoder().encode(point)
        #expect(value == [1, -2, [["text": "origin"]]])
        #expect(try JSONValueDecoder().decode(Point.self, from: value) == point)
    }

    @Test func topLevelScalarsAndOptionalsRoundTrip() throws {
        let encoder = JSONValueEncoder()
        let decoder = JSONValueDecoder()
        #expect(try encoder.encode("x") == "x")
        #expect(try encoder.encode(3) == 3)
        #expect(try encoder.encode(Int?.none) == .null)
        #expect(try encoder.encode([1, nil, 3] as [Int?]) == [1, nil, 3])
        #expect(try decoder.decode([Int?].self, from: [1, nil, 3]) == [1, nil, 3])
        #expect(try decoder.decode(Int?.self, from: nil) == nil)
        #expect(try decoder.decode(String.self, from: "x") == "x")
    }

    @Test func jsonValuesInsideCodableTypesStayAsTheyAre() throws {
        struct Envelope: Codable, Equatable {
            var payloadData: JSONValue
            var extraFields: JSONObject
        }
        let envelope = Envelope(payloadData: ["someKey": [1, "two"]], extraFields: ["otherKey": nil])
        let encoder = JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase)
        let value = try encoder.encode(envelope)
        #expect(value == ["payload_data": ["someKey": [1, "two"]], "extra_fields": ["otherKey": nil]])
        let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        #expect(try decoder.decode(Envelope.self, from: value) == envelope)
    }

    @Test func floatsKeepTheirShortestDecimalForm() throws {
        #expect(try JSONValueEncoder().encode(Float(0.1)) == .double(0.1))
        #expect(try JSONValueDecoder().decode(Float.self, from: 0.1) == Float(0.1))
        #expect(try JSONValueEncoder().encode(Double.nan).doubleValue?.isNaN == true)
    }

    @Test func specialFoundationTypesUseJSONFriendlyForms() throws {
        struct Special: Codable, Equatable {
            var data: Data
            var url: URL
            var price: Decimal
        }
        let special = Special(
            data: Data([0, 1, 2, 255]),
            url: URL(string: "https://example.com/a?b=c")!,
            price: Decimal(string: "12.34")!
        )
        let value = try JSONValueEncoder().encode(special)
        #expect(value == ["data": "AAEC/w==", "url": "https://example.com/a?b=c", "price": 12.34])
        #expect(try JSONValueDecoder().decode(Special.self, from: value) == special)
        #expect(try JSONValueEncoder().encode(Decimal(42)) == .int(42))
    }

    @Test func userInfoReachesTheValues() throws {
        struct Reader: Codable {
            static let key = CodingUserInfoKey(rawValue: "version")!
            var version: Int
            init(version: Int) { self.version = version }
            init(from decoder: any Decoder) throws { version = decoder.userInfo[Self.key] as? Int ?? -1 }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? Int ?? -1)
            }
        }
        var encoder = JSONValueEncoder()
        encoder.userInfo[Reader.key] = 2
        #expect(try encoder.encode(Reader(version: 0)) == 2)
        var decoder = JSONValueDecoder()
        decoder.userInfo[Reader.key] = 3
        #expect(try decoder.decode(Reader.self, from: nil).version == 3)
    }

    @Test func generatedValuesRoundTripThroughTheCoders() throws {
        var generator = JSONValueGenerator(seed: 11)
        for _ in 0..<200 {
            let value = generator.value()
            let encoded = try JSONValueEncoder().encode(value)
            #expect(encoded == value)
            #expect(try JSONValueDecoder().decode(JSONValue.self, from: encoded) == value)
        }
    }
}

// MARK: - Key strategies

struct JSONValueCodingKeyStrategyTests {
    private struct Keys: Codable, Equatable {
        var myURLProperty = 1
        var feeFiFoFum = 2
        var _leading = 3
        var trailing_ = 4
        var simple = 5
        var userID = 6
    }

    @Test func convertToSnakeCaseMatchesFoundation() throws {
        let value = try JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase).encode(Keys())
        #expect(
            value.objectValue?.keys == [
                "my_url_property", "fee_fi_fo_fum", "_leading", "trailing_", "simple", "user_id",
            ]
        )

        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let foundationValue = try JSONValue(parsing: foundation.encode(Keys()))
        #expect(Set(foundationValue.objectValue?.keys ?? []) == Set(value.objectValue?.keys ?? []))
    }

    @Test func convertFromSnakeCaseMatchesCamelCaseProperties() throws {
        struct Person: Codable, Equatable {
            var firstName: String
            var createdAt: Int
            var _private: Int
        }
        let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        let person = try decoder.decode(Person.self, from: ["first_name": "Ann", "created_at": 1, "_private": 2])
        #expect(person == Person(firstName: "Ann", createdAt: 1, _private: 2))
    }

    @Test func convertFromSnakeCaseDoesNotRestoreAcronyms() {
        struct Link: Decodable { var myURL: String }
        let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        #expect(throws: DecodingError.self) { try decoder.decode(Link.self, from: ["my_url": "x"]) }
        do {
            _ = try decoder.decode(Link.self, from: ["my_url": "x"])
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "myURL")
            #expect(context.debugDescription.contains("converted to my_url"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func snakeCaseRoundTripsThroughBothStrategies() throws {
        let encoder = JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase)
        let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        struct Sample: Codable, Equatable { var firstName: String; var lastLoginDate: Int }
        let sample = Sample(firstName: "A", lastLoginDate: 5)
        let value = try encoder.encode(sample)
        #expect(value == ["first_name": "A", "last_login_date": 5])
        #expect(try decoder.decode(Sample.self, from: value) == sample)
    }

    @Test func dictionaryKeysAreNotConverted() throws {
        struct Holder: Codable, Equatable { var itemCounts: [String: Int] }
        let holder = Holder(itemCounts: ["someKey": 1, "other_key": 2])
        let value = try JSONValueEncoder(keyEncodingStrategy: .convertToSnakeCase).encode(holder)
        #expect(value == ["item_counts": ["someKey": 1, "other_key": 2]])
        let decoded = try JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase).decode(Holder.self, from: value)
        #expect(decoded == holder)
    }

    @Test func firstOfTwoKeysThatConvertAlikeWins() throws {
        struct One: Decodable { var aB: Int }
        let decoder = JSONValueDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        #expect(try decoder.decode(One.self, from: ["a_b": 1, "aB": 2]).aB == 1)
    }

    @Test func customStrategiesSeeTheCodingPath() throws {
        var encoder = JSONValueEncoder()
        encoder.keyEncodingStrategy = .custom { path in
            AnyKey(stringValue: "\(path.count):" + path[path.count - 1].stringValue.uppercased())
        }
        let value = try encoder.encode(["outer": Author(name: "x", id: 1)])
        #expect(value == ["outer": ["2:NAME": "x", "2:ID": 1]])

        var decoder = JSONValueDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            AnyKey(stringValue: path[path.count - 1].stringValue.lowercased())
        }
        #expect(try decoder.decode(Author.self, from: ["NAME": "y", "Id": 2]) == Author(name: "y", id: 2))
    }
}

// MARK: - Dates

struct JSONValueCodingDateTests {
    private let date = Date(timeIntervalSince1970: 1_714_566_600)  // 2024-05-01T12:30:00Z

    @Test func iso8601IsTheDefault() throws {
        #expect(try JSONValueEncoder().encode(date) == "2024-05-01T12:30:00Z")
        #expect(try JSONValueEncoder().encode(date.addingTimeInterval(0.25)) == "2024-05-01T12:30:00.250Z")
        #expect(try JSONValueEncoder().encode(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(try JSONValueEncoder().encode(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func iso8601DecodingAcceptsFractionsAndOffsets() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Date.self, from: "2024-05-01T12:30:00Z") == date)
        #expect(try decoder.decode(Date.self, from: "2024-05-01T12:30:00.250Z") == date.addingTimeInterval(0.25))
        #expect(try decoder.decode(Date.self, from: "2024-05-01T14:30:00+02:00") == date)
        #expect(try decoder.decode(Date.self, from: "2024-05-01T07:00:00-0530") == date)
        #expect(try decoder.decode(Date.self, from: "2024-05-01t12:30:00.5z") == date.addingTimeInterval(0.5))
        let precise = try decoder.decode(Date.self, from: "2024-05-01T12:30:00.123456789Z")
        #expect(abs(precise.timeIntervalSince(date) - 0.123456789) < 1e-6)
    }

    @Test func iso8601RoundTripsMilliseconds() throws {
        let original = Date(timeIntervalSince1970: 1_700_000_000.123)
        let value = try JSONValueEncoder().encode(original)
        #expect(value == "2023-11-14T22:13:20.123Z")
        let decoded = try JSONValueDecoder().decode(Date.self, from: value)
        #expect(abs(decoded.timeIntervalSince(original)) < 0.000_5)
    }

    @Test func malformedISO8601IsDataCorrupted() {
        for text in [
            "2024-05-01", "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:30:00",
            "2024-05-01T12:30:00.Z", "nope",
        ] {
            #expect(throws: DecodingError.self, "\(text)") {
                try JSONValueDecoder().decode(Date.self, from: .string(text))
            }
        }
        do {
            _ = try JSONValueDecoder().decode([String: Date].self, from: ["when": "yesterday"])
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "Expected date string to be ISO8601-formatted.")
            #expect(context.codingPath.map(\.stringValue) == ["when"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func secondsAndMillisecondsSince1970() throws {
        let seconds = JSONValueEncoder(dateEncodingStrategy: .secondsSince1970)
        let milliseconds = JSONValueEncoder(dateEncodingStrategy: .millisecondsSince1970)
        #expect(try seconds.encode(date) == 1_714_566_600)
        #expect(try milliseconds.encode(date) == 1_714_566_600_000)
        #expect(
            try JSONValueDecoder(dateDecodingStrategy: .secondsSince1970).decode(Date.self, from: 1_714_566_600) == date
        )
        #expect(
            try JSONValueDecoder(dateDecodingStrategy: .millisecondsSince1970).decode(
                Date.self,
                from: 1_714_566_600_000
            ) == date
        )
        #expect(
            try JSONValueDecoder(dateDecodingStrategy: .millisecondsSince1970).decode(
                Date.self,
                from: 1_714_566_600_250.0
            ) == date.addingTimeInterval(0.25)
        )
    }

    @Test func deferredToDateUsesDatesOwnCoding() throws {
        let value = try JSONValueEncoder(dateEncodingStrategy: .deferredToDate).encode(date)
        #expect(value == .double(date.timeIntervalSinceReferenceDate))
        #expect(try JSONValueDecoder(dateDecodingStrategy: .deferredToDate).decode(Date.self, from: value) == date)
    }
}

// MARK: - Numbers

struct JSONValueCodingNumberTests {
    @Test func everyIntegerTypeDecodesInRange() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int8.self, from: -128) == -128)
        #expect(try decoder.decode(Int16.self, from: 32767) == 32767)
        #expect(try decoder.decode(Int32.self, from: -5) == -5)
        #expect(try decoder.decode(Int64.self, from: .int(.min)) == .min)
        #expect(try decoder.decode(UInt.self, from: 5) == 5)
        #expect(try decoder.decode(UInt8.self, from: 255) == 255)
        #expect(try decoder.decode(UInt16.self, from: 65535) == 65535)
        #expect(try decoder.decode(UInt32.self, from: 4_294_967_295) == 4_294_967_295)
        #expect(try decoder.decode(UInt64.self, from: .int(.max)) == UInt64(Int.max))
    }

    @Test func integersOutOfRangeAreDataCorrupted() {
        let decoder = JSONValueDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode(UInt8.self, from: 300) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int8.self, from: -129) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: -1) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 1e19) }
        do {
            _ = try decoder.decode([UInt8].self, from: [1, 300])
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "Number 300 does not fit in UInt8.")
            #expect(context.codingPath.map(\.intValue) == [1])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func integralDoublesDecodeAsIntegers() throws {
        #expect(try JSONValueDecoder().decode(Int.self, from: 2.0) == 2)
        #expect(try JSONValueDecoder().decode(UInt8.self, from: 255.0) == 255)
    }

    @Test func fractionalDoublesDoNotDecodeAsIntegers() {
        do {
            _ = try JSONValueDecoder().decode(Int.self, from: 1.5)
            Issue.record("1.5 should not decode as Int")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "Number 1.5 does not fit in Int.")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func floatingPointTypesAcceptIntegers() throws {
        #expect(try JSONValueDecoder().decode(Double.self, from: 3) == 3.0)
        #expect(try JSONValueDecoder().decode(Float.self, from: 3) == 3.0)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Float.self, from: 1e300) }
    }

    @Test func unsignedIntegersAboveIntMaxCannotBeEncoded() throws {
        #expect(try JSONValueEncoder().encode(UInt64(Int.max)) == .int(.max))
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["big": UInt.max]) }
    }

    @Test func decimalsOutOfRangeAreDataCorrupted() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Decimal.self, from: 1e300) }
    }
}

// MARK: - Errors

struct JSONValueCodingErrorTests {
    private struct Library: Decodable {
        var books: [Book]
    }

    private struct Book: Decodable {
        var title: String
        var year: Int
        var subtitle: String?
    }

    @Test func typeMismatchReportsThePath() {
        do {
            _ = try JSONValueDecoder().decode(
                Library.self,
                from: ["books": [["title": "A", "year": 1], ["title": 2, "year": 2]]]
            )
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(type is String.Type)
            #expect(path(DecodingError.typeMismatch(type, context)) == ".books[1].title")
            #expect(context.debugDescription == "Expected to decode String but found a number instead.")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func keyNotFoundReportsTheKeyAndPath() {
        do {
            _ = try JSONValueDecoder().decode(Library.self, from: ["books": [["title": "A"]]])
            Issue.record("expected an error")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "year")
            #expect(context.codingPath.map(\.stringValue) == ["books", "Index 0"])
            #expect(context.debugDescription.hasPrefix("No value associated with key"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func nullForARequiredValueIsValueNotFound() {
        do {
            _ = try JSONValueDecoder().decode(Book.self, from: ["title": nil, "year": 1])
            Issue.record("expected an error")
        } catch DecodingError.valueNotFound(let type, let context) {
            #expect(type is String.Type)
            #expect(context.codingPath.map(\.stringValue) == ["title"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingOrNullOptionalsDecodeAsNil() throws {
        let missing = try JSONValueDecoder().decode(Book.self, from: ["title": "A", "year": 1])
        let null = try JSONValueDecoder().decode(Book.self, from: ["title": "A", "year": 1, "subtitle": nil])
        let present = try JSONValueDecoder().decode(Book.self, from: ["title": "A", "year": 1, "subtitle": "B"])
        #expect(missing.subtitle == nil)
        #expect(null.subtitle == nil)
        #expect(present.subtitle == "B")
    }

    @Test func optionalWithTheWrongTypeStillThrows() {
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Book.self, from: ["title": "A", "year": 1, "subtitle": 5])
        }
    }

    @Test func wrongContainerKindIsTypeMismatch() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Book.self, from: [1, 2]) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int].self, from: ["a": 1]) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Book.self, from: nil) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(JSONObject.self, from: [1]) }
    }

    @Test func readingPastTheEndOfAnArrayIsValueNotFound() {
        struct Pair: Decodable {
            var first: Int
            var second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        do {
            _ = try JSONValueDecoder().decode(Pair.self, from: [1])
            Issue.record("expected an error")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.debugDescription == "Unkeyed container is at end.")
            #expect(context.codingPath.map(\.intValue) == [1])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func invalidBase64AndURLsAreDataCorrupted() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Data.self, from: "***") }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(URL.self, from: "") }
    }

    @Test func encodingNothingAtTopLevelThrows() throws {
        struct Empty: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Empty()) }
        #expect(try JSONValueEncoder().encode([Empty()]) == [[:]])
    }
}

// MARK: - Foundation coders

struct JSONValueFoundationCodableTests {
    @Test func jsonDecoderKeepsBooleansIntegersAndDoublesApart() throws {
        let data = Data(#"[true, false, 1, 0, -3, 1.5, 1e2, "s", null, {"a": [1]}, 12345678901234567890]"#.utf8)
        let value = try JSONDecoder().decode(JSONValue.self, from: data)
        guard let elements = value.arrayValue, elements.count == 11 else {
            Issue.record("expected 11 elements, got \(value)")
            return
        }
        if case .bool(true) = elements[0] {} else { Issue.record("true should stay a Boolean") }
        if case .bool(false) = elements[1] {} else { Issue.record("false should stay a Boolean") }
        if case .int(1) = elements[2] {} else { Issue.record("1 should be an integer, got \(elements[2])") }
        if case .int(0) = elements[3] {} else { Issue.record("0 should be an integer") }
        #expect(elements[4] == -3)
        if case .double(1.5) = elements[5] {} else { Issue.record("1.5 should be a double") }
        #expect(elements[6] == 100)
        #expect(elements[7] == "s")
        #expect(elements[8] == .null)
        #expect(elements[9] == ["a": [1]])
        #expect(elements[10] == .double(1.2345678901234567e19))
    }

    @Test func jsonEncoderWritesTheSameJSON() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true], "b": ["c": [:]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValue(parsing: data) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(
            try JSONDecoder().decode(JSONObject.self, from: JSONEncoder().encode(value.objectValue))
                == value.objectValue
        )
    }

    @Test func jsonValuePropertiesWorkWithFoundationCoders() throws {
        struct Model: Codable, Equatable {
            var id: Int
            var attributes: JSONObject
        }
        let model = Model(id: 1, attributes: ["title": "x", "tags": ["a"]])
        let decoded = try JSONDecoder().decode(Model.self, from: JSONEncoder().encode(model))
        #expect(decoded == model)
    }
}
