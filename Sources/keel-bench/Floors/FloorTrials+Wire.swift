import Foundation

// MARK: - wire_twitter, wire_canada

extension FloorTrials {
    /// A `wire_*` floor's state: the corpus's UTF-8 bytes and what the last run built.
    final class WireState<Document> {
        let shape: WireShape
        let data: Data
        var document: Document?

        init(_ shape: WireShape) {
            self.shape = shape
            data = Data(shape.text.utf8)
        }
    }

    /// The floor of `wire_twitter` and `wire_canada`: Foundation's `JSONDecoder` into the same
    /// `Codable` structs that `Model.decode` fills.
    static func wireDecoder(_ shape: WireShape) -> Trial {
        switch shape {
        case .twitter:
            decoded(WireState<TwitterCorpus>(shape)) { StatusDigest.check($0.statuses.map(StatusDigest.init)) }
        case .canada:
            decoded(WireState<FeatureCollection>(shape)) { outlineCheck($0.features.flatMap(\.points)) }
        }
    }

    private static func decoded<Document: Decodable>(
        _ prototype: @autoclosure @escaping () -> WireState<Document>,
        check: @escaping (Document) -> Int
    ) -> Trial {
        Trial(
            setup: { prototype() },
            body: { state in
                let document = try JSONDecoder().decode(Document.self, from: state.data)
                state.document = document
                return document
            },
            verify: { state in check(try unwrap(state.document, "nothing decoded")) }
        )
    }

    /// `JSONSerialization` of the corpus into Foundation's dictionaries and arrays, for
    /// reference beside `wire_twitter` and `wire_canada`.
    static func wireSerialization(_ shape: WireShape) -> Trial {
        Trial(
            setup: { WireState<Any>(shape) },
            body: { state in
                let document = try JSONSerialization.jsonObject(with: state.data)
                state.document = document
                return Handoff(value: document)
            },
            verify: { state in
                let document = try unwrap(state.document as? [String: Any], "not an object")
                let list = try unwrap(document[state.shape.listKey] as? [Any], "no \(state.shape.listKey)")
                switch state.shape {
                case .twitter: return StatusDigest.check(list.map(StatusDigest.init))
                case .canada: return outlineCheck(list.flatMap(outlinePoints))
                }
            }
        )
    }
}
