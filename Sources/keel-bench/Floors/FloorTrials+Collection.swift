// MARK: - coll_add, coll_get

extension FloorTrials {
    /// The floor of `coll_add`'s state: the short notes as values by slot (`id`, `title`,
    /// `done`, `rank`), built untimed as Keel's input maps are.
    struct AddState {
        let collection = SlotCollection()
        let input = (0..<100_000).map(slotShortNote)
        let addedCounts = Log<Int>()

        init() {
            collection.updateObservers.append { [addedCounts] changes in
                addedCounts.entries.append(changes.added.count)
            }
        }
    }

    /// The floor of `coll_add`: build, index by id in an array and append 100,000 records.
    static func collectionAdd() -> Trial {
        Trial(
            setup: { AddState() },
            body: { state in state.collection.add(state.input) },
            verify: { state in
                let records = state.collection.records
                try expect(records.count == 100_000, "length \(records.count)")
                try expect(state.addedCounts.entries == [100_000], "updates \(state.addedCounts.entries)")
                return orderChecksum(records.map { $0.int(at: SlotCollection.idSlot) ?? -1 })
            }
        )
    }

    /// The floor of `coll_get`'s state: short notes as slot records (`id`, `title`,
    /// `done`, `rank`), in an array indexed by their dense integer ids.
    final class GetState {
        static let rank = 3
        let byID: ContiguousArray<SlotRecord?>
        var found = 0
        var rankSum = 0

        init() {
            byID = ContiguousArray(
                (0..<100_000).map { i in
                    SlotRecord([.int(i), .string("note \(i)"), .bool(false), .int(i % 100)])
                }
            )
        }

        /// The record with this id.
        @inline(__always)
        func get(_ id: Int) -> SlotRecord? {
            byID.indices.contains(id) ? byID[id] : nil
        }
    }

    /// The floor of `coll_get`: an array lookup by id and a read by slot.
    static func collectionGet() -> Trial {
        Trial(
            setup: { GetState() },
            body: { state in
                var found = 0
                var rankSum = 0
                for _ in 0..<10 {
                    for id in 0..<100_000 {
                        if let record = state.get(id) {
                            found += 1
                            rankSum += record.values[GetState.rank].intValue ?? 0
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

// MARK: - coll_sort

extension FloorTrials {
    /// The floor of `coll_sort`'s state: records of `id` and `rank` by slot.
    final class SortState {
        static let rank = 1
        let collection: SlotCollection
        let byID: [SlotRecord]
        var random = ParkMiller(seed: 42)
        let sorts = Counter()

        init() throws {
            var random = ParkMiller(seed: 42)
            let input: [ContiguousArray<PlainValue>] = (0..<100_000).map { id in
                [.int(id), .int(random.next() % 1_000_000)]
            }
            let collection = SlotCollection(input)
            byID = try (0..<100_000).map { id in try unwrap(collection.get(id), "no record \(id)") }
            collection.sort(bySlot: Self.rank)
            self.collection = collection
            self.random = random
            collection.sortObservers.append { [sorts] in sorts.value += 1 }
        }
    }

    /// The floor of `coll_sort`: a stable sort by the integer in a slot.
    static func collectionSort() -> Trial {
        Trial(
            setup: { try SortState() },
            timing: { state, stopwatch in
                for _ in 0..<5 {
                    for record in state.byID { record.store(SortState.rank, .int(state.random.next() % 1_000_000)) }
                    stopwatch.measure { state.collection.sort(bySlot: SortState.rank) }
                }
            },
            verify: { state in
                let records = state.collection.records
                try expect(state.sorts.value == 5, "\(state.sorts.value) sorts")
                let ranks = records.map { $0.int(at: SortState.rank) ?? -1 }
                try expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 <= $1 }, "ranks decrease")
                return orderChecksum(records.map { $0.int(at: SlotCollection.idSlot) ?? -1 })
            }
        )
    }
}

// MARK: - coll_set_merge

extension FloorTrials {
    /// The floor of `coll_set_merge`'s state: records of `id`, `title` and `rank` by slot,
    /// the input as values by slot, and closures on the collection for updates and title
    /// changes.
    struct SetMergeState {
        static let title = 1
        let collection = SlotCollection(
            (0..<100_000).map { i in [.int(i), .string("note \(i)"), .int(i % 100)] }
        )
        let input: [ContiguousArray<PlainValue>] = (50_000..<150_000).map { id in
            let title = id < 100_000 && id % 2 == 0 ? "note \(id) v2" : "note \(id)"
            return [.int(id), .string(title), .int(id % 100)]
        }
        let updates = Log<SlotChanges>()
        let titleChanges = Counter()

        init() {
            collection.updateObservers.append { [updates] changes in updates.entries.append(changes) }
            collection.attributeObservers.append { [titleChanges] _, slot, _ in
                if slot == Self.title { titleChanges.value += 1 }
            }
        }
    }

    /// The floor of `coll_set_merge`: an array index by id, merging by slot and one-pass
    /// removal.
    static func collectionSetMerge() -> Trial {
        Trial(
            setup: { SetMergeState() },
            body: { state in state.collection.set(state.input) },
            verify: { state in
                let ids = state.collection.records.map { $0.int(at: SlotCollection.idSlot) ?? -1 }
                try expect(state.updates.entries.count == 1, "\(state.updates.entries.count) updates")
                let changes = state.updates.entries[0]
                try expect(
                    changes.added.count == 50_000 && changes.removed.count == 50_000 && changes.merged.count == 50_000,
                    "added \(changes.added.count), removed \(changes.removed.count), merged \(changes.merged.count)"
                )
                try expect(state.titleChanges.value == 25_000, "\(state.titleChanges.value) title changes")
                try expect(ids.count == 100_000, "length \(ids.count)")
                try expect(ids.first == 50_000 && ids.last == 149_999, "wrong first or last id")
                return orderChecksum(ids)
            }
        )
    }
}

// MARK: - parse_reset

extension FloorTrials {
    /// The floor of `parse_reset`'s state.
    struct ParseResetState {
        let json = notesJSON(count: 100_000)
        let collection = SlotCollection()
        let resets = Counter()

        init() {
            collection.resetObservers.append { [resets] in resets.value += 1 }
        }
    }

    /// The floor of `parse_reset`: the hand-written parser, reading each row straight into
    /// values by slot of the `Note` layout with the defaults in the slots it leaves out, then
    /// slot records of them.
    static func parseReset() -> Trial {
        Trial(
            setup: { ParseResetState() },
            body: { state in
                let rows = try PlainJSONParser.parseRows(state.json, layout: noteLayout)
                return (rows, state.collection.reset(rows))
            },
            verify: { state in
                let collection = state.collection
                let (id, tags, author, archived) = (0, 5, 6, 7)
                try expect(noteLayout.keys[author] == "author" && noteLayout.keys[tags] == "tags", "the layout changed")
                try expect(state.resets.value == 1, "\(state.resets.value) resets")
                try expect(collection.records.count == 100_000, "length \(collection.records.count)")
                let note = try unwrap(collection.get(77_777), "no note 77777")
                try expect(note.values[author].objectValue?["id"] == .int(3), "author.id")
                try expect(note.values[archived] == .bool(false), "archived")
                try expect(note.values[tags].arrayValue?.count == 2, "tags")
                return orderChecksum(collection.records.map { $0.int(at: id) ?? -1 })
            }
        )
    }
}

// MARK: - bubble

extension FloorTrials {
    /// The floor of `bubble`'s state: 1,000 records of `id` and `title` by slot, the
    /// titles, and a closure on the collection that counts title changes.
    struct BubbleState {
        static let title = 1
        let collection = SlotCollection((0..<1_000).map { i in [.int(i), .string("note \(i)")] })
        let titles: [PlainValue] = (0..<1_000).map { .string("title \($0)") }
        let titleChanges = Counter()

        init() {
            collection.attributeObservers.append { [titleChanges] _, slot, _ in
                if slot == Self.title { titleChanges.value += 1 }
            }
        }
    }

    /// The floor of `bubble`: compare and store by slot, and tell the collection, which
    /// calls its closure.
    static func bubble() -> Trial {
        Trial(
            setup: { BubbleState() },
            body: { state in
                let records = state.collection.records
                for title in state.titles {
                    for record in records { record.set(BubbleState.title, title) }
                }
            },
            verify: verifyBubble
        )
    }

    /// The check of `bubble`'s floors: every title changed, the last to `"title 999"`.
    static func verifyBubble(_ state: BubbleState) throws -> Int {
        let last = state.collection.records[999].values[BubbleState.title]
        try expect(last == .string("title 999"), "last title")
        return state.titleChanges.value
    }
}

// MARK: - coll_remove

extension FloorTrials {
    /// The floor of `coll_remove`'s state: the short notes as slot records in a list that
    /// empties slots.
    struct RemoveState {
        let collection = SlotRemovalList((0..<100_000).map(slotShortNote))
        let plan = removalPlan()
        let removals = Tally()

        init() {
            collection.removalObservers.append { [removals] _, index in
                removals.calls += 1
                removals.sum += index
            }
        }
    }

    /// The floor of `coll_remove`: an array lookup of the record's slot by id, emptying the
    /// slot, and a Fenwick tree sum for its index.
    static func collectionRemove() -> Trial {
        Trial(
            setup: { RemoveState() },
            body: { state in
                let collection = state.collection
                for step in state.plan {
                    switch step {
                    case .pop: collection.pop()
                    case .shift: collection.shift()
                    case .remove(let id): collection.remove(id: id)
                    }
                }
            },
            verify: { state in
                let ids = state.collection.records.map { $0.int(at: SlotCollection.idSlot) ?? -1 }
                try expect(state.removals.calls == 20_000, "\(state.removals.calls) removals")
                try expect(ids.count == 80_000, "length \(ids.count)")
                try expect(ids.first == 2_001 && ids.last == 97_998, "wrong first or last id")
                return (orderChecksum(ids) + state.removals.sum) % (1 << 32)
            }
        )
    }
}
