import Keel

// MARK: - wire_twitter, wire_canada

/// Which corpus a `wire_*` workload reads.
enum WireShape {
    case twitter, canada

    /// The corpus as JSON text, written by Keel's writer.
    var text: String {
        switch self {
        case .twitter: WireCorpus.twitter().description
        case .canada: WireCorpus.canada().description
        }
    }

    /// The key of the document's list of records.
    var listKey: String {
        switch self {
        case .twitter: "statuses"
        case .canada: "features"
        }
    }

    /// The check value of the records of the list, as Keel's values.
    func check(_ records: [JSONValue]) -> Int {
        switch self {
        case .twitter: StatusDigest.check(records.map(StatusDigest.init))
        case .canada: outlineCheck(records.flatMap(outlinePoints))
        }
    }
}

extension KeelTrials {
    /// A `wire_*` workload's state: the corpus's text, the collection the parse fills, and
    /// the check value of the `Codable` structs when the trial decodes them.
    final class WireState<M: Model> {
        let shape: WireShape
        let text: String
        let collection = Collection<M>()
        var decodedCheck: Int?

        init(_ shape: WireShape) {
            self.shape = shape
            text = shape.text
        }
    }

    /// `wire_twitter` and `wire_canada`: the JSON text parsed into models, the natural Keel
    /// path for a response: `JSONValue(parsing:)`, then `Collection.reset(parsing:)` of the
    /// document's list.
    static func wire(_ shape: WireShape) -> Trial {
        switch shape {
        case .twitter: wireModels(WireState<Tweet>(shape))
        case .canada: wireModels(WireState<Outline>(shape))
        }
    }

    private static func wireModels<M: Model>(_ prototype: @autoclosure @escaping () -> WireState<M>) -> Trial {
        Trial(
            setup: { prototype() },
            body: { state in try parseModels(state) },
            verify: { state in try verifyModels(state) }
        )
    }

    /// The `Codable` bridge of `wire_twitter` and `wire_canada`: the same parse into models,
    /// then `Model.decode` of every model into the app's `Codable` struct.
    static func wireCodable(_ shape: WireShape) -> Trial {
        switch shape {
        case .twitter: wireDecoded(WireState<Tweet>(shape), as: Status.self) { StatusDigest.check($0.map(StatusDigest.init)) }
        case .canada: wireDecoded(WireState<Outline>(shape), as: Feature.self) { outlineCheck($0.flatMap(\.points)) }
        }
    }

    private static func wireDecoded<M: Model, Record: Decodable>(
        _ prototype: @autoclosure @escaping () -> WireState<M>,
        as type: Record.Type,
        check: @escaping ([Record]) -> Int
    ) -> Trial {
        Trial(
            setup: { prototype() },
            body: { state in
                let (value, models) = try parseModels(state)
                let records = try models.map { try $0.decode(Record.self) }
                state.decodedCheck = check(records)
                return (value, models, records)
            },
            verify: { state in
                let check = try verifyModels(state)
                try expect(state.decodedCheck == check, "decoded \(state.decodedCheck ?? -1), models \(check)")
                return check
            }
        )
    }

    private static func parseModels<M: Model>(_ state: WireState<M>) throws -> (JSONValue, [M]) {
        let value = try JSONValue(parsing: state.text)
        let list = try unwrap(value[state.shape.listKey], "no \(state.shape.listKey)")
        return (value, try state.collection.reset(parsing: list))
    }

    private static func verifyModels<M: Model>(_ state: WireState<M>) throws -> Int {
        let expected = state.shape == .twitter ? WireCorpus.statusCount : WireCorpus.features
        try expect(state.collection.length == expected, "\(state.collection.length) models")
        return state.shape.check(state.collection.models.map { .object($0.attributes) })
    }
}
