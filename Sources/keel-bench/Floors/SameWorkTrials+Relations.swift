import Keel

// MARK: - nested_merge

extension SameWorkTrials {
    /// `nested_merge` through an API of the same shape: the text parsed into a document the
    /// caller holds, then the users merged from it by id, each key placed by name.
    ///
    /// Keel's workload is two calls: `JSONValue(parsing:)` returns a JSON document that the
    /// caller keeps (any key of it can be read; the timed region returns it), and
    /// `set(parsing:)` merges the users and their invites from that document. The machine
    /// floor parses straight into values by slot and hands back only those; this floor parses
    /// into a document with Keel's parser (ordered objects, as the store anchors' floors parse),
    /// places each user's and invite's keys by name in their layouts, and merges as the machine
    /// floor does (by id and by slot, into the owners and their children, the invites mirrored
    /// back into each user's `invites`).
    static func nestedMerge() -> Trial {
        Trial(
            setup: { try FloorTrials.NestedMergeState() },
            body: { state in
                let document = try JSONValue(parsing: state.json)
                guard case .array(let users) = document else {
                    throw VerificationFailure(description: "the document is not an array")
                }
                state.collection.set(
                    try users.map { try slotValues(of: $0, layout: FloorTrials.NestedMergeState.layout) }
                )
                return document
            },
            verify: FloorTrials.verifyNestedMerge
        )
    }

    /// The values by slot of `layout` of a JSON object, each key placed by name; a slot with
    /// a row layout (a has-many relation) holds its array's objects as rows of that layout.
    static func slotValues(of record: JSONValue, layout: SlotLayout) throws -> ContiguousArray<PlainValue> {
        guard case .object(let attributes) = record else {
            throw VerificationFailure(description: "a record is not an object")
        }
        var values = layout.defaults
        for (key, value) in attributes {
            guard let slot = SlotRecord.slot(of: key, in: layout.keys) else { continue }
            if let rowLayout = layout.rowLayouts[slot] {
                guard case .array(let rows) = value else {
                    throw VerificationFailure(description: "\(key) is not an array")
                }
                values[slot] = .array(try rows.map { .array(Array(try slotValues(of: $0, layout: rowLayout))) })
            } else {
                values[slot] = try plainValue(of: value)
            }
        }
        return values
    }

    /// A scalar JSON value as the floors' value.
    static func plainValue(of value: JSONValue) throws -> PlainValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int(int)
        case .double(let double): return .double(double)
        case .string(let string): return .string(string)
        case .array, .object: throw VerificationFailure(description: "a nested value outside a relation")
        }
    }
}
