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
