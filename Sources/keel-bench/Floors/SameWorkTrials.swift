/// The same-work floors: the fastest plain Swift that does what a workload observably does
/// through an API of the same shape as Keel's (and Backbone's).
///
/// Where Keel's API takes an attribute literal, the floor builds the same literal and finds
/// each key's slot by name (``SlotRecord/set(_:keys:)``); where a read must report itself to
/// Observation, the floor reports it to an `ObservationRegistrar` (``ObservedSlotRecord``);
/// where a collection takes attribute maps, its records adopt them and have client ids, and
/// events are found by name (``NamedCollection``, ``NamedRemovalList``, ``NamedEmitter``); where
/// a comparator names an attribute, each record's key is read by that name; where a store takes
/// requests named by URL, the floor reads the URL (``PlainRecordStore``); where the API hands
/// the caller a parsed document, the floor parses one. The machine floors (``FloorTrials``)
/// take slot numbers and report nothing. Each trial returns the same check value as the
/// workload.
enum SameWorkTrials {
    /// The keys of `set_change`'s record.
    static let countedKeys = ["x"]
    /// The keys of `bubble`'s records.
    static let bubbleKeys = ["id", "title"]
}

// MARK: - set_change, set_nochange, set_typed_change, set_typed_nochange

extension SameWorkTrials {
    /// `set_change` through a literal: `record.set(["x": .int(i)])`.
    static func setChange() -> Trial {
        Trial(
            setup: { FloorTrials.CountedRecord(x: -1) },
            body: { state in
                for i in 0..<1_000_000 { state.record.set(["x": .int(i)], keys: countedKeys) }
            },
            verify: FloorTrials.verifyChanged
        )
    }

    /// `set_nochange` through a literal: `record.set(["x": .int(1)])`.
    static func setNoChange() -> Trial {
        Trial(
            setup: { FloorTrials.CountedRecord(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.record.set(["x": .int(1)], keys: countedKeys) }
            },
            verify: FloorTrials.verifyUnchanged
        )
    }

    /// `set_typed_change` by the attribute's name, without a literal.
    static func setTypedChange() -> Trial {
        Trial(
            setup: { FloorTrials.CountedRecord(x: -1) },
            body: { state in
                for i in 0..<1_000_000 { state.record.set(named: "x", .int(i), keys: countedKeys) }
            },
            verify: FloorTrials.verifyChanged
        )
    }

    /// `set_typed_nochange` by the attribute's name, without a literal.
    static func setTypedNoChange() -> Trial {
        Trial(
            setup: { FloorTrials.CountedRecord(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.record.set(named: "x", .int(1), keys: countedKeys) }
            },
            verify: FloorTrials.verifyUnchanged
        )
    }
}

// MARK: - construct

extension SameWorkTrials {
    /// `construct` from the `noteAttrs(i)` literal, each key placed by name over the defaults.
    static func construct() -> Trial {
        Trial(
            setup: { Slots<SlotRecord>(count: 200_000) },
            body: { out in
                for i in 0..<200_000 {
                    out.items[i] = SlotRecord(
                        [
                            "id": .int(i), "title": .string("note \(i)"), "body": .string("text"),
                            "done": .bool(false), "rank": .int(i % 100),
                            "tags": .array([.string("a"), .string("b")]),
                            "author": .object(["name": .string("x"), "id": .int(3)]),
                        ],
                        layout: noteLayout
                    )
                }
            },
            verify: FloorTrials.verifyConstructed
        )
    }
}

// MARK: - coll_get

extension SameWorkTrials {
    /// `coll_get`'s state with reads reported to Observation.
    final class GetState {
        static let rank = 3
        let collection = ObservedSlotCollection(
            ContiguousArray(
                (0..<100_000).map { i in
                    ObservedSlotRecord([.int(i), .string("note \(i)"), .bool(false), .int(i % 100)])
                }
            )
        )
        var found = 0
        var rankSum = 0
    }

    /// `coll_get` with the lookup and the read of `rank` reported to the registrars.
    static func collectionGet() -> Trial {
        Trial(
            setup: { GetState() },
            body: { state in
                var found = 0
                var rankSum = 0
                for _ in 0..<10 {
                    for id in 0..<100_000 {
                        if let record = state.collection.get(id) {
                            found += 1
                            rankSum += record.read(GetState.rank).intValue ?? 0
                        }
                    }
                }
                state.found = found
                state.rankSum = rankSum
            },
            verify: { state in
                try expect(state.found == 1_000_000, "found \(state.found)")
                return state.rankSum
            }
        )
    }
}

// MARK: - bubble

extension SameWorkTrials {
    /// `bubble` through a literal: `record.set(["title": title])`.
    static func bubble() -> Trial {
        Trial(
            setup: { FloorTrials.BubbleState() },
            body: { state in
                let records = state.collection.records
                for title in state.titles {
                    for record in records { record.set(["title": title], keys: bubbleKeys) }
                }
            },
            verify: FloorTrials.verifyBubble
        )
    }
}
