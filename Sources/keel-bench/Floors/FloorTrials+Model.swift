/// The plain-Swift floors: the same work as ``KeelTrials`` with standard dictionaries,
/// arrays and closures, and no Keel.
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
            verify: { state in
                try expect(state.attributeChanges.value == 1_000_000, "x changed \(state.attributeChanges.value) times")
                try expect(state.changes.value == 1_000_000, "\(state.changes.value) changes")
                try expect(state.record.values[CountedRecord.x] == .int(999_999), "final x is wrong")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }

    /// The floor of `set_nochange`: compare by slot, and nothing else.
    static func setNoChange() -> Trial {
        Trial(
            setup: { CountedRecord(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.record.set(CountedRecord.x, .int(1)) }
            },
            verify: { state in
                try expect(state.record.values[CountedRecord.x] == .int(1), "x changed")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }
}

// MARK: - construct

extension FloorTrials {
    /// The floor of `construct`: a record from the defaults merged with a fresh dictionary.
    static func construct() -> Trial {
        Trial(
            setup: { Slots<PlainRecord>(count: 200_000) },
            body: { out in
                for i in 0..<200_000 {
                    out.items[i] = PlainRecord(plainNoteDefaults.merging(plainNote(i)) { _, new in new })
                }
            },
            verify: { out in
                let last = try unwrap(out.items[199_999], "the last slot is empty")
                try expect(last.id == 199_999, "last id \(String(describing: last.id))")
                try expect(last.attributes["archived"] == .bool(false), "the archived default is missing")
                try expect(last.attributes["title"] == .string("note 199999"), "last title is wrong")
                try expect(last.attributes.count == 8, "\(last.attributes.count) attributes")
                return out.items.reduce(0) { sum, record in sum + (record?.attributes["rank"]?.intValue ?? 0) }
            }
        )
    }
}
