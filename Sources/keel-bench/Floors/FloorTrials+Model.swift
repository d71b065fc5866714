/// The plain-Swift floors: the same work as ``KeelTrials`` with values by slot in arrays,
/// records in arrays indexed by id, closures in arrays, and no Keel.
enum FloorTrials {}

// MARK: - set_change, set_nochange

extension FloorTrials {
    /// A record with one attribute, `x` in slot 0, one counting closure for changes of `x`
    /// and one for every change.
    struct CountedRecord {
        static let x = 0
        let record: SlotRecord
        let attributeChanges = Counter()
        let changes = Counter()

        init(x: Int) {
            record = SlotRecord([.int(x)])
            record.attributeObservers.append { [attributeChanges] slot, _ in
                if slot == Self.x { attributeChanges.value += 1 }
            }
            record.changeObservers.append { [changes] in changes.value += 1 }
        }
    }

    /// The floor of `set_change`: compare, store by slot, call two closures.
    static func setChange() -> Trial {
        Trial(
            setup: { CountedRecord(x: -1) },
            body: { state in
                for i in 0..<1_000_000 { state.record.set(CountedRecord.x, .int(i)) }
            },
            verify: verifyChanged
        )
    }

    /// The check of `set_change` and its floors: a million changes of `x`, the last to 999,999.
    static func verifyChanged(_ state: CountedRecord) throws -> Int {
        try expect(state.attributeChanges.value == 1_000_000, "x changed \(state.attributeChanges.value) times")
        try expect(state.changes.value == 1_000_000, "\(state.changes.value) changes")
        try expect(state.record.values[CountedRecord.x] == .int(999_999), "final x is wrong")
        return state.attributeChanges.value + state.changes.value
    }

    /// The floor of `set_nochange`: compare by slot, and nothing else.
    static func setNoChange() -> Trial {
        Trial(
            setup: { CountedRecord(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.record.set(CountedRecord.x, .int(1)) }
            },
            verify: verifyUnchanged
        )
    }

    /// The check of `set_nochange` and its floors: `x` is still 1, and nothing was reported.
    static func verifyUnchanged(_ state: CountedRecord) throws -> Int {
        try expect(state.record.values[CountedRecord.x] == .int(1), "x changed")
        return state.attributeChanges.value + state.changes.value
    }
}

// MARK: - construct

extension FloorTrials {
    /// The floor of `construct`: a slot record from a copy of the `Note` defaults with the
    /// input's values in their slots.
    static func construct() -> Trial {
        Trial(
            setup: { Slots<SlotRecord>(count: 200_000) },
            body: { out in
                for i in 0..<200_000 {
                    let input = slotNote(i)
                    var values = noteLayout.defaults
                    values.replaceSubrange(0..<input.count, with: input)
                    out.items[i] = SlotRecord(values)
                }
            },
            verify: verifyConstructed
        )
    }

    /// The check of `construct`'s floors: the last record's values and the sum of the ranks.
    static func verifyConstructed(_ out: Slots<SlotRecord>) throws -> Int {
        let layout = noteLayout.keys
        let (id, title, rank, archived) = (0, 1, 4, 7)
        let last = try unwrap(out.items[199_999], "the last slot is empty")
        try expect(layout[archived] == "archived" && layout[rank] == "rank", "the layout changed")
        try expect(last.int(at: id) == 199_999, "last id \(String(describing: last.int(at: id)))")
        try expect(last.values[archived] == .bool(false), "the archived default is missing")
        try expect(last.values[title] == .string("note 199999"), "last title is wrong")
        try expect(last.values.count == 8, "\(last.values.count) attributes")
        return out.items.reduce(0) { sum, record in sum + (record?.int(at: rank) ?? 0) }
    }
}
