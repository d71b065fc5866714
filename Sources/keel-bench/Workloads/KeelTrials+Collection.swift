import Keel

// MARK: - coll_add, coll_get

extension KeelTrials {
    /// `coll_add`'s state: an empty collection with an `update` listener that records how
    /// many models each update added, and the input, built untimed.
    struct AddState {
        let collection = Collection<Model>()
        let input = (0..<100_000).map(shortNoteAttributes)
        let addedCounts = Log<Int>()

        init() {
            collection.on("update") { [addedCounts] event in
                addedCounts.entries.append(event.changes?.added.count ?? -1)
            }
        }
    }

    /// `coll_add`: one `add` of 100,000 attribute maps.
    static func collectionAdd() -> Trial {
        Trial(
            setup: { AddState() },
            body: { state in state.collection.add(state.input) },
            verify: { state in
                try expect(state.collection.length == 100_000, "length \(state.collection.length)")
                try expect(state.addedCounts.entries == [100_000], "update events \(state.addedCounts.entries)")
                return orderChecksum(state.collection.models.map(\.intID))
            }
        )
    }

    /// `coll_get`'s state: the collection after `coll_add`, and what the lookups found.
    final class GetState {
        let collection = Collection<Model>()
        var found = 0
        var rankSum = 0

        init() {
            collection.add((0..<100_000).map(shortNoteAttributes))
        }
    }

    /// `coll_get`: 1,000,000 lookups by integer id, reading each model's `rank`.
    static func collectionGet() -> Trial {
        Trial(
            setup: { GetState() },
            body: { state in
                var found = 0
                var rankSum = 0
                for _ in 0..<10 {
                    for id in 0..<100_000 {
                        if let model = state.collection.get(.int(id)) {
                            found += 1
                            rankSum += model["rank"]?.intValue ?? 0
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

extension KeelTrials {
    /// `coll_sort`'s state: a collection sorted by `rank`, its models in id order, the
    /// random stream that keeps shuffling the ranks, and a `sort` counter.
    final class SortState {
        let collection: Collection<Model>
        let byID: [Model]
        var random = ParkMiller(seed: 42)
        let sorts = Counter()

        init() throws {
            var random = ParkMiller(seed: 42)
            let input: [Attributes] = (0..<100_000).map { id in
                ["id": .int(id), "rank": .int(random.next() % 1_000_000)]
            }
            let collection = Collection<Model>(input, comparator: .attribute("rank"))
            byID = try (0..<100_000).map { id in try unwrap(collection.get(.int(id)), "no model \(id)") }
            self.collection = collection
            self.random = random
            collection.on("sort") { [sorts] _ in sorts.value += 1 }
        }
    }

    /// `coll_sort`: five rounds of an untimed silent shuffle of every rank and a timed, stable
    /// `sort()`.
    static func collectionSort() -> Trial {
        Trial(
            setup: { try SortState() },
            timing: { state, stopwatch in
                for _ in 0..<5 {
                    for model in state.byID {
                        model.set(["rank": .int(state.random.next() % 1_000_000)], silent: true)
                    }
                    try stopwatch.measure { try state.collection.sort() }
                }
            },
            verify: { state in
                let models = state.collection.models
                try expect(state.sorts.value == 5, "\(state.sorts.value) sort events")
                try expect(models.count == 100_000, "length \(models.count)")
                let ranks = models.map { $0["rank"]?.intValue ?? -1 }
                try expect(zip(ranks, ranks.dropFirst()).allSatisfy { $0 <= $1 }, "ranks decrease")
                return orderChecksum(models.map(\.intID))
            }
        )
    }
}

// MARK: - coll_set_merge

extension KeelTrials {
    /// `coll_set_merge`'s state: 100,000 models, the input that merges half of them, removes
    /// the other half and adds 50,000, and listeners on `update` and `change:title`.
    struct SetMergeState {
        let collection = Collection<Model>()
        let input: [Attributes] = (50_000..<150_000).map { id in
            let title = id < 100_000 && id % 2 == 0 ? "note \(id) v2" : "note \(id)"
            return ["id": .int(id), "title": .string(title), "rank": .int(id % 100)]
        }
        let updates = Log<CollectionChanges>()
        let titleChanges = Counter()

        init() {
            collection.add(
                (0..<100_000).map { i in ["id": .int(i), "title": .string("note \(i)"), "rank": .int(i % 100)] }
            )
            collection.on("update") { [updates] event in
                if let changes = event.changes { updates.entries.append(changes) }
            }
            collection.on("change:title") { [titleChanges] _ in titleChanges.value += 1 }
        }
    }

    /// `coll_set_merge`: one smart `set` of 100,000 attribute maps with add, merge and remove.
    static func collectionSetMerge() -> Trial {
        Trial(
            setup: { SetMergeState() },
            body: { state in state.collection.set(state.input, remove: true) },
            verify: { state in
                let collection = state.collection
                try expect(state.updates.entries.count == 1, "\(state.updates.entries.count) update events")
                let changes = state.updates.entries[0]
                try expect(
                    changes.added.count == 50_000 && changes.removed.count == 50_000 && changes.merged.count == 50_000,
                    "added \(changes.added.count), removed \(changes.removed.count), merged \(changes.merged.count)"
                )
                try expect(state.titleChanges.value == 25_000, "\(state.titleChanges.value) change:title events")
                try expect(collection.length == 100_000, "length \(collection.length)")
                let ends = (collection.at(0)?.intID, collection.at(99_999)?.intID)
                try expect(ends == (50_000, 149_999), "first and last ids \(String(describing: ends))")
                return orderChecksum(collection.models.map(\.intID))
            }
        )
    }
}

// MARK: - parse_reset

extension KeelTrials {
    /// `parse_reset`'s state: the JSON text of `count` notes, an empty collection of `Note` and
    /// a `reset` counter.
    struct ParseResetState {
        let count: Int
        let json: String
        let collection = Collection<Note>()
        let resets = Counter()

        init(count: Int) {
            self.count = count
            json = notesJSON(count: count)
            collection.on("reset") { [resets] _ in resets.value += 1 }
        }
    }

    /// `parse_reset`: parse the JSON text of `count` notes and `reset(parsing:)` the collection
    /// with it; 100,000 for the workload, 2,000 for `jsonapi_compound`'s paired reference.
    static func parseReset(count: Int = 100_000) -> Trial {
        Trial(
            setup: { ParseResetState(count: count) },
            body: { state in
                let response = try JSONValue(parsing: state.json)
                return (response, try state.collection.reset(parsing: response))
            },
            verify: { state in
                let collection = state.collection
                try expect(state.resets.value == 1, "\(state.resets.value) reset events")
                try expect(collection.length == state.count, "length \(collection.length)")
                let probe = state.count * 7 / 9
                let note = try unwrap(collection.get(.int(probe)), "no note \(probe)")
                try expect(note["author"]?["id"] == 3, "author.id")
                try expect(note["archived"] == false, "archived")
                try expect(note["tags"]?.arrayValue?.count == 2, "tags")
                return orderChecksum(collection.models.map(\.intID))
            }
        )
    }
}

// MARK: - bubble

extension KeelTrials {
    /// `bubble`'s state: 1,000 models, the titles to set, and a `change:title` counter on
    /// the collection, which receives its models' events.
    struct BubbleState {
        let collection = Collection<Model>((0..<1_000).map { i in ["id": .int(i), "title": .string("note \(i)")] })
        let titles: [JSONValue] = (0..<1_000).map { .string("title \($0)") }
        let titleChanges = Counter()

        init() {
            collection.on("change:title") { [titleChanges] _ in titleChanges.value += 1 }
        }
    }

    /// `bubble`: 1,000,000 title changes on models, each bubbling to the collection.
    static func bubble() -> Trial {
        Trial(
            setup: { BubbleState() },
            body: { state in
                let models = state.collection.models
                for title in state.titles {
                    for model in models { model.set(["title": title]) }
                }
            },
            verify: { state in
                let last = state.collection.models[999]["title"]
                try expect(last == "title 999", "last title \(String(describing: last))")
                return state.titleChanges.value
            }
        )
    }
}

extension Model {
    /// The model's integer id, or -1 (which spoils any checksum) when it has none.
    var intID: Int { id?.intValue ?? -1 }
}

// MARK: - coll_remove

extension KeelTrials {
    /// `coll_remove`'s state: the 100,000 short notes, the removal plan, and a `remove`
    /// listener that counts the events and adds up their indexes.
    struct RemoveState {
        let collection = Collection<Model>((0..<100_000).map(shortNoteAttributes))
        let plan = removalPlan()
        let removals = Tally()

        init() {
            collection.on("remove") { [removals] event in
                removals.calls += 1
                removals.sum += event.index ?? -1_000_000
            }
        }
    }

    /// `coll_remove`: 20,000 removals one call at a time (`pop`, `shift` and `remove(id)`).
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
                try expect(state.removals.calls == 20_000, "\(state.removals.calls) remove events")
                try expect(state.collection.length == 80_000, "length \(state.collection.length)")
                let ends = (state.collection.at(0)?.intID, state.collection.at(-1)?.intID)
                try expect(ends == (2_001, 97_998), "first and last ids \(String(describing: ends))")
                return (orderChecksum(state.collection.models.map(\.intID)) + state.removals.sum) % (1 << 32)
            }
        )
    }
}
