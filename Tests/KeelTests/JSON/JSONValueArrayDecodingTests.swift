import Foundation
import Keel
import Testing

/// Arrays decode straight from the ``JSONArray`` (without a nested decoder per array): the
/// values, the error kinds and the coding paths must stay those of Foundation's `JSONDecoder`
/// reading the same JSON text.
struct JSONValueArrayDecodingTests {
    private struct Polygon: Codable, Equatable {
        var coordinates: [[[Double]]]
    }

    private struct Point: Codable, Equatable {
        var x: Int
        var y: Int
    }

    private struct Shapes: Codable, Equatable {
        var ids: [Int]
        var names: [String]
        var flags: [Bool]
        var points: [Point]
        var bytes: [UInt8]
        var gaps: [Int?]
        var rings: [[Int]]?
        var tags: Set<String>
    }

    /// What a decoding error says: its kind and its coding path, indexes as numbers.
    private struct Failure: Equatable, CustomStringConvertible {
        var kind: String
        var path: [String]

        init(kind: String, path: [String]) {
            self.kind = kind
            self.path = path
        }

        init(_ error: any Error) {
            let context: DecodingError.Context?
            switch error as? DecodingError {
            case .typeMismatch(_, let value): (kind, context) = ("typeMismatch", value)
            case .valueNotFound(_, let value): (kind, context) = ("valueNotFound", value)
            case .keyNotFound(_, let value): (kind, context) = ("keyNotFound", value)
            case .dataCorrupted(let value): (kind, context) = ("dataCorrupted", value)
            default: (kind, context) = ("\(error)", nil)
            }
            path = context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } ?? []
        }

        var description: String { "\(kind) at \(path)" }
    }

    /// `T` decoded from `json` by both decoders: the same value, or the same failure.
    private func expectBothDecoders<T: Decodable & Equatable>(
        _ type: T.Type,
        _ json: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = Data(json.utf8)
        let foundation = Result { try JSONDecoder().decode(T.self, from: data) }
        let keel = Result { try JSONValueDecoder().decode(T.self, from: try JSONValue(parsing: data)) }
        switch (foundation, keel) {
        case (.success(let expected), .success(let decoded)):
            #expect(decoded == expected, sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let error)):
            #expect(Failure(error) == Failure(expected), sourceLocation: sourceLocation)
        case (.success(let expected), .failure(let error)):
            Issue.record("JSONDecoder read \(expected), Keel threw \(Failure(error))", sourceLocation: sourceLocation)
        case (.failure(let expected), .success(let decoded)):
            Issue.record("JSONDecoder threw \(Failure(expected)), Keel read \(decoded)", sourceLocation: sourceLocation)
        }
    }

    @Test func nestedArraysOfNumbersReadLikeJSONDecoder() throws {
        try expectBothDecoders(Polygon.self, #"{"coordinates": [[[1, 2.5], [-3e2, 0]], [], [[4]]]}"#)
        try expectBothDecoders([[Int]].self, "[[1, 2.0, -3], [], [9007199254740993]]")
        try expectBothDecoders([Double].self, "[1, 1.5, 12345678901234567890]")
    }

    @Test func arraysOfEveryElementKindReadLikeJSONDecoder() throws {
        try expectBothDecoders(
            Shapes.self,
            """
            {"ids": [1, 2], "names": ["a", "é"], "flags": [true, false], "points": [{"x": 1, "y": 2}],
             "bytes": [0, 255], "gaps": [1, null, 3], "rings": [[1], [2, 3]], "tags": ["a", "b"]}
            """
        )
        try expectBothDecoders(
            Shapes.self,
            #"{"ids": [], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [], "rings": null, "tags": []}"#
        )
    }

    @Test(arguments: [
        #"{"coordinates": [[[1, "x"]]]}"#,
        #"{"coordinates": [[[1, null]]]}"#,
        #"{"coordinates": [[1, 2]]}"#,
        #"{"coordinates": [null]}"#,
        #"{"coordinates": {"a": 1}}"#,
        #"{"coordinates": null}"#,
        #"{}"#,
    ])
    func malformedCoordinatesFailAtTheSamePath(json: String) throws {
        try expectBothDecoders(Polygon.self, json)
    }

    @Test(arguments: [
        #"{"ids": [], "names": ["a", 1], "flags": [], "points": [], "bytes": [], "gaps": [], "tags": []}"#,
        #"{"ids": [], "names": [], "flags": [true, 1], "points": [], "bytes": [], "gaps": [], "tags": []}"#,
        #"{"ids": [], "names": [], "flags": [], "points": [{"x": 1}], "bytes": [], "gaps": [], "tags": []}"#,
        #"{"ids": [], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [1, "2"], "tags": []}"#,
        #"{"ids": [], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [], "rings": [[1], ["x"]], "tags": []}"#,
        #"{"ids": [], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [], "tags": [1]}"#,
        #"{"ids": [null], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [], "tags": []}"#,
    ])
    func malformedElementsFailAtTheSamePath(json: String) throws {
        try expectBothDecoders(Shapes.self, json)
    }

    /// A number that does not fit the element type is `dataCorrupted` at the element, as
    /// for a property; Foundation's `JSONDecoder` on Linux reports these with an empty path.
    @Test func numbersThatDoNotFitNameTheirElement() throws {
        let cases: [(json: String, path: [String])] = [
            (
                #"{"ids": [1, 1.5], "names": [], "flags": [], "points": [], "bytes": [], "gaps": [], "tags": []}"#,
                ["ids", "1"]
            ),
            (
                #"{"ids": [], "names": [], "flags": [], "points": [], "bytes": [256], "gaps": [], "tags": []}"#,
                ["bytes", "0"]
            ),
        ]
        for (json, path) in cases {
            let value = try JSONValue(parsing: Data(json.utf8))
            let failure = Result { try JSONValueDecoder().decode(Shapes.self, from: value) }.map { _ in () }
            guard case .failure(let error) = failure else {
                Issue.record("expected \(json) to fail")
                continue
            }
            #expect(Failure(error) == Failure(kind: "dataCorrupted", path: path))
        }
    }
}
