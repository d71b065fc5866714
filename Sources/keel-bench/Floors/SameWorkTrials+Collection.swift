// MARK: - coll_add

extension SameWorkTrials {
    /// `coll_add`'s state: an empty collection, the same 100,000 attribute maps as Keel's input
    /// (built untimed, in order), and an `update` handler registered by name.
    struct AddState {
        let collection = NamedCollection()
        let input = (0..<100_000).map(namedShortNote)
        let addedCounts = Log<Int>()

        init() {
            collection.on("update") { [addedCounts] event in
                addedCounts.entries.append(event.changes?.added.count ?? -1)
            }
        }
    }

    /// `coll_add` through an API of the same shape: one `add` of the 100,000 attribute maps,
    /// each adopted by its record and its id read by name, each record given a client id and indexed by id and client
    /// id, the `update` handler found by name and given the added records, the change of
    /// the list reported to Observation (``NamedCollection``).
    static func collectionAdd() -> Trial {
        Trial(
            setup: { AddState() },
            body: { state in state.collection.add(state.input) },
            verify: { state in
                let collection = state.collection
                let records = collection.records
                try expect(records.count == 100_000, "length \(records.count)")
                try expect(state.addedCounts.entries == [100_000], "updates \(state.addedCounts.entries)")
                try expect(collection.get(cid: records[7].cid) === records[7], "record 7 not found by cid")
                return orderChecksum(records.map { $0.id ?? -1 })
            }
        )
    }
}

// MARK: - coll_set_merge

extension SameWorkTrials {
    /// `coll_set_merge`'s state: 100,000 records of `id`, `title` and `rank` added from maps,
    /// the same input maps as Keel's, and `update` and `change:title` handlers registered by
    /// name.
    struct SetMergeState {
        let collection = NamedCollection()
        let input: [PlainPairs] = (50_000..<150_000).map { id in
            let title = id < 100_000 && id % 2 == 0 ? "note \(id) v2" : "note \(id)"
            return [("id", .int(id)), ("title", .string(title)), ("rank", .int(id % 100))]
        }
        let updates = Log<NamedChanges>()
        let titleChanges = Counter()

        init() {
            collection.add(
                (0..<100_000).map { i -> PlainPairs in
                    [("id", .int(i)), ("title", .string("note \(i)")), ("rank", .int(i % 100))]
                }
            )
            collection.on("update") { [updates] event in
                if let changes = event.changes { updates.entries.append(changes) }
            }
            collection.on("change:title") { [titleChanges] _ in titleChanges.value += 1 }
        }
    }

    /// `coll_set_merge` through an API of the same shape: one `set` of the 100,000 maps, each
    /// id found by name in its map, each present record merged key by key by name (a changed
    /// title found its `change:title` handlers by the attribute's name), the new records
    /// given client ids and indexed by both, the missing ones removed from both indexes in
    /// one pass, `update` given the three lists (``NamedCollection``).
    static func collectionSetMerge() -> Trial {
        Trial(
            setup: { SetMergeState() },
            body: { state in state.collection.set(state.input) },
            verify: { state in
                let collection = state.collection
                let ids = collection.records.map { $0.id ?? -1 }
                try expect(state.updates.entries.count == 1, "\(state.updates.entries.count) updates")
                let changes = state.updates.entries[0]
                try expect(
                    changes.added.count == 50_000 && changes.removed.count == 50_000 && changes.merged.count == 50_000,
                    "added \(changes.added.count), removed \(changes.removed.count), merged \(changes.merged.count)"
                )
                try expect(state.titleChanges.value == 25_000, "\(state.titleChanges.value) title changes")
                try expect(ids.count == 100_000, "length \(ids.count)")
                try expect(ids.first == 50_000 && ids.last == 149_999, "wrong first or last id")
                try expect(collection.get(id: 10) == nil, "record 10 is still indexed")
                return orderChecksum(ids)
            }
        )
    }
}

// MARK: - coll_sort

extension SameWorkTrials {
    /// `coll_sort`'s state: records of `id` and `rank` added from maps and sorted by `rank`,
    /// the records in id order, the random stream that keeps shuffling the ranks, and a
    /// `sort` handler registered by name.
    final class SortState {
        let collection: NamedCollection
        let byID: [NamedRecord]
        var random = ParkMiller(seed: 42)
        let sorts = Counter()

        init() throws {
            var random = ParkMiller(seed: 42)
            let collection = NamedCollection()
            collection.add(
                (0..<100_000).map { id -> PlainPairs in
                    [("id", .int(id)), ("rank", .int(random.next() % 1_000_000))]
                }
            )
            byID = try (0..<100_000).map { id in try unwrap(collection.get(id: id), "no record \(id)") }
            collection.sort(byAttribute: "rank")
            self.collection = collection
            self.random = random
            collection.on("sort") { [sorts] _ in sorts.value += 1 }
        }
    }

    /// `coll_sort` through an API of the same shape: five rounds of an untimed silent
    /// shuffle of every rank (each stored by name) and a timed stable sort by the attribute
    /// named `rank`, each record's key read by name, the change of the list reported to
    /// Observation and the `sort` handler found by name (``NamedCollection``).
    static func collectionSort() -> Trial {
        Trial(
            setup: { try SortState() },
            timing: { state, stopwatch in
                for _ in 0..<5 {
                    for record in state.byID {
                        record.store(.int(state.random.next() % 1_000_000), named: "rank")
                    }
                    stopwatch.measure { state.collection.sort(byAttribute: "rank") }
                }
            },
            verify: { state in
                let records = state.collection.records
                try expect(state.sorts.value == 5, "\(state.sorts.value) sorts")
                try expect(records.count == 100_000, "length \(records.count)")
                let ranks = records.map { $0.int(named: "rank") ?? -1 }
                try expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 <= $1 }, "ranks decrease")
                return orderChecksum(records.map { $0.id ?? -1 })
            }
        )
    }
}

// MARK: - coll_remove

extension SameWorkTrials {
    /// `coll_remove`'s state: a list of the 100,000 short-note maps, the removal plan, and a
    /// `remove` handler registered by name that counts the events and adds up their indexes.
    struct RemoveState {
        let collection = NamedRemovalList((0..<100_000).map(namedShortNote))
        let plan = removalPlan()
        let removals = Tally()

        init() {
            collection.on("remove") { [removals] event in
                removals.calls += 1
                removals.sum += event.index ?? -1_000_000
            }
        }
    }

    /// `coll_remove` through an API of the same shape: 20,000 calls of `pop()`, `shift()` and
    /// `remove(.int(id))`, each taking its record out of the id and client-id indexes, firing
    /// `remove` with the record and its index to the handler found by name, unlinking the
    /// record and looking up `update` by name (``NamedRemovalList``).
    static func collectionRemove() -> Trial {
        Trial(
            setup: { RemoveState() },
            body: { state in
                let collection = state.collection
                for step in state.plan {
                    switch step {
                    case .pop: collection.pop()
                    case .shift: collection.shift()
                    case .remove(let id): collection.remove(.int(id))
                    }
                }
            },
            verify: { state in
                let records = state.collection.records
                let ids = records.map { $0.id ?? -1 }
                try expect(state.removals.calls == 20_000, "\(state.removals.calls) remove events")
                try expect(ids.count == 80_000, "length \(ids.count)")
                try expect(ids.first == 2_001 && ids.last == 97_998, "wrong first or last id")
                try expect(state.collection.get(id: 2_000) == nil, "record 2000 is still indexed")
                try expect(state.collection.get(cid: records[7].cid) === records[7], "record 7 not found by cid")
                return (orderChecksum(ids) + state.removals.sum) % (1 << 32)
            }
        )
    }
}
