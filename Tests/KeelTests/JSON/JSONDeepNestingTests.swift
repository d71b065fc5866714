import Keel
import Testing

/// Far deeper than any call stack allows when each level takes a recursive call.
private let stackBreakingDepth = 100_000

/// `inner` wrapped in `depth` arrays: `[[[inner]]]`.
private func nestedArrays(_ depth: Int, around inner: JSONValue = 1) -> JSONValue {
    var value = inner
    for _ in 0..<depth { value = .array([value]) }
    return value
}

/// `inner` wrapped in `depth` objects: `{"a":{"a":inner}}`.
private func nestedObjects(_ depth: Int, around inner: JSONValue = 1) -> JSONValue {
    var value = inner
    for _ in 0..<depth { value = .object(["a": value]) }
    return value
}

/// `inner` wrapped in `depth` arrays and objects, alternately.
private func nestedMixed(_ depth: Int, around inner: JSONValue = 1) -> JSONValue {
    var value = inner
    for level in 0..<depth { value = level.isMultiple(of: 2) ? .array([value, 0]) : .object(["b": 0, "a": value]) }
    return value
}

/// How a deep value nests.
enum Nesting: CaseIterable, Sendable {
    case arrays, objects, mixed

    /// `inner` wrapped in `depth` levels.
    func build(_ depth: Int, around inner: JSONValue) -> JSONValue {
        switch self {
        case .arrays: return nestedArrays(depth, around: inner)
        case .objects: return nestedObjects(depth, around: inner)
        case .mixed: return nestedMixed(depth, around: inner)
        }
    }
}

struct JSONDeepNestingEqualityTests {
    @Test(arguments: Nesting.allCases)
    func valuesNestedFarTooDeepForRecursionCompareEqual(nesting: Nesting) {
        let a = nesting.build(stackBreakingDepth, around: 1)
        let b = nesting.build(stackBreakingDepth, around: 1.0)
        let c = nesting.build(stackBreakingDepth, around: 2)
        let shallower = nesting.build(stackBreakingDepth - 1, around: 1)
        #expect(a == b)
        #expect(a != c)
        #expect(a != shallower)
        #expect(!(c == b))
    }

    @Test func objectsNestedFarTooDeepForRecursionCompareEqual() {
        let a = nestedObjects(stackBreakingDepth)
        let b = nestedObjects(stackBreakingDepth)
        #expect(a.objectValue == b.objectValue)
        #expect(a.objectValue != nestedObjects(3).objectValue)
    }

    @Test func keysInAnotherOrderStillCompareEqualBeyondTheRecursionLimit() {
        let a = nestedArrays(stackBreakingDepth, around: ["x": 1, "y": [2, 3]])
        let b = nestedArrays(stackBreakingDepth, around: ["y": [2, 3.0], "x": 1])
        let c = nestedArrays(stackBreakingDepth, around: ["y": [2, 3], "z": 1])
        #expect(a == b)
        #expect(a != c)
    }
}

struct JSONDeepNestingHashingTests {
    @Test(arguments: Nesting.allCases)
    func equalValuesNestedFarTooDeepForRecursionHashAlike(nesting: Nesting) {
        let a = nesting.build(stackBreakingDepth, around: 1)
        let b = nesting.build(stackBreakingDepth, around: 1.0)
        let c = nesting.build(stackBreakingDepth, around: 2)
        #expect(a.hashValue == b.hashValue)
        #expect(a.hashValue != c.hashValue)
        do {
            let set: Set<JSONValue> = [a, b, c]
            #expect(set.count == 2)
        }
    }

    @Test func objectKeyOrderDoesNotChangeTheHashOfADeepValue() {
        let a = nestedObjects(stackBreakingDepth, around: ["x": 1, "y": 2])
        let b = nestedObjects(stackBreakingDepth, around: ["y": 2, "x": 1])
        #expect(a.hashValue == b.hashValue)
        #expect(a.objectValue?.hashValue == b.objectValue?.hashValue)
    }

    @Test(arguments: [63, 64, 65, 66, 200])
    func hashingAgreesWithEqualityAroundTheRecursionLimit(depth: Int) {
        let a = nestedMixed(depth, around: ["k": [1, "x"], "j": nil])
        let b = nestedMixed(depth, around: ["j": nil, "k": [1.0, "x"]])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.hashValue != nestedMixed(depth, around: ["k": [1, "y"], "j": nil]).hashValue)
    }
}

struct JSONDeepNestingDescriptionTests {
    @Test func aValueNestedFarTooDeepForRecursionIsDescribedWhole() {
        let depth = stackBreakingDepth
        let arrays = nestedArrays(depth)
        let objects = nestedObjects(depth)
        // Compared outside `#expect`, which would print both texts on failure.
        let arrayText = arrays.description
        let arraysDescribed =
            arrayText == String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        #expect(arraysDescribed)
        let reflected = String(reflecting: arrays) == arrayText
        #expect(reflected)
        let objectText = objects.description
        let objectsDescribed =
            objectText == String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(objectsDescribed)
        let objectDescribedAlike = objects.objectValue?.description == objectText
        #expect(objectDescribedAlike)
    }

    @Test func nestedArraysFarTooDeepForRecursionSort() {
        let one = nestedArrays(stackBreakingDepth, around: 1)
        let two = nestedArrays(stackBreakingDepth, around: 2)
        #expect(JSONValue.sortsBefore(one, two))
        #expect(!JSONValue.sortsBefore(two, one))
        #expect(!JSONValue.sortsBefore(one, one))
    }
}

struct JSONDeepNestingWritingTests {
    @Test(arguments: Nesting.allCases)
    func writingAValueNestedFarTooDeepThrowsATypedError(nesting: Nesting) {
        let value = nesting.build(stackBreakingDepth, around: 1)
        let tooDeep = JSONWriteError(kind: .tooDeeplyNested)
        #expect(throws: tooDeep) { try value.jsonData() }
        #expect(throws: tooDeep) { try value.jsonString(options: [.prettyPrinted, .sortedKeys]) }
    }

    @Test func anObjectNestedTooDeepThrowsATypedError() {
        let object = nestedObjects(JSONValue.maximumParsingDepth + 1).objectValue ?? [:]
        #expect(throws: JSONWriteError(kind: .tooDeeplyNested)) { try object.jsonData() }
        #expect(throws: JSONWriteError(kind: .tooDeeplyNested)) { try object.jsonString() }
    }

    @Test(arguments: Nesting.allCases)
    func writingAcceptsExactlyWhatParsingAccepts(nesting: Nesting) throws {
        let limit = JSONValue.maximumParsingDepth
        let accepted: [(Int, JSONValue)] = [(limit, 1), (limit - 1, []), (limit - 1, [:])]
        for (depth, inner) in accepted {
            let value = nesting.build(depth, around: inner)
            for options in [JSONWriteOptions(), [.prettyPrinted, .sortedKeys]] {
                let text = try value.jsonString(options: options)
                #expect(try JSONValue(parsing: text) == value)
            }
        }
        let refused: [(Int, JSONValue)] = [(limit + 1, 1), (limit, []), (limit, [:])]
        for (depth, inner) in refused {
            let value = nesting.build(depth, around: inner)
            #expect(throws: JSONWriteError(kind: .tooDeeplyNested)) { try value.jsonData() }
            // What writing refuses, parsing refuses too.
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: value.description) }
        }
    }

    @Test func theErrorNamesTheLimit() {
        #expect(
            JSONWriteError(kind: .tooDeeplyNested).description
                == "Arrays and objects nested deeper than 512 levels cannot be written as JSON"
        )
    }
}

struct JSONDeepNestingCodingTests {
    private struct Envelope: Codable, Equatable {
        var payload: JSONValue
    }

    @Test func theValueCodersPassADeepValueThroughWithoutRecursion() throws {
        let value = nestedMixed(stackBreakingDepth)
        let encoded = try JSONValueEncoder().encode(value)
        let decoded = try JSONValueDecoder().decode(JSONValue.self, from: value)
        #expect(encoded == value)
        #expect(decoded == value)
        let envelope = try JSONValueDecoder().decode(Envelope.self, from: ["payload": value])
        #expect(envelope.payload == value)
        let reencoded = try JSONValueEncoder().encode(envelope)
        #expect(reencoded["payload"] == value)
    }
}
