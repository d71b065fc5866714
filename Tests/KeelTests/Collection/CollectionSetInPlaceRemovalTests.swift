import Keel
import Observation
import Synchronization
import Testing

/// A smart `set` closes up the kept models in the collection's own array, notes each removed
/// model's `remove` index by runs, grows its id and client-id indexes in place, and reserves
/// its merged list once: against a plain model of Backbone's `set`, over random rounds, the
/// order, the indexes, the `remove` indexes and the `update` lists stay right, observed or
/// not, with the models array held by the caller or not.
struct CollectionSetInPlaceRemovalTests {
    /// What one round of `set` should do to a collection holding `present` (ids, in order)
    /// given `input` (distinct ids, in order).
    private struct Expected {
        let order: [Int]
        let removed: [Int]
        let removeIndexes: [Int]
        let added: [Int]
        let merged: [Int]

        init(present: [Int], input: [Int]) {
            let inputSet = Set(input)
            let presentSet = Set(present)
            order = input
            removed = present.filter { !inputSet.contains($0) }
            // Backbone removes them one by one, in collection order: each lies after the kept
            // models before it.
            var kept = 0
            var indexes: [Int] = []
            for id in present {
                if inputSet.contains(id) { kept += 1 } else { indexes.append(kept) }
            }
            removeIndexes = indexes
            added = input.filter { !presentSet.contains($0) }
            merged = input.filter { presentSet.contains($0) }
        }
    }

    /// The ids of a list of models.
    private func ids(_ models: [Model]) -> [Int] {
        models.map { $0.id?.intValue ?? -1 }
    }

    /// Runs random rounds of `set` on one collection, growing it past its indexes' capacity
    /// and shrinking it in between; `observe` tracks the models with Observation in a round,
    /// `hold` keeps the models array from before the round; `seed` seeds the generator
    /// (SplitMix64), so that a failure repeats.
    private func runRounds(observe: Bool, hold: Bool, seed: UInt64) throws {
        var generator = CollectionTestRandom(seed: seed)
        let notes = Collection<Model>((0..<50).map { ["id": .int($0)] })
        var present = Array(0..<50)
        var nextID = 50
        var removals: [(id: Int, index: Int)] = []
        notes.on("remove") { event in
            removals.append((event.model?.id?.intValue ?? -1, event.index ?? -1))
        }
        var changes: CollectionChanges?
        notes.on("update") { event in changes = event.changes }
        for round in 0..<40 {
            // Keep a random part (a run at the front, or scattered), add a random number of new
            // ids (sometimes many, to grow the indexes), and shuffle sometimes.
            var input = present.filter { _ in Bool.random(using: &generator) }
            if round % 5 == 0 { input = Array(present.dropFirst(present.count / 2)) }
            let newCount = round % 7 == 3 ? 600 : Int.random(in: 0..<30, using: &generator)
            input += (nextID..<(nextID + newCount))
            nextID += newCount
            if round % 3 == 1 { input.shuffle(using: &generator) }
            let expected = Expected(present: present, input: input)
            let held = hold ? notes.models : []
            let heldIDs = ids(held)
            let observedChange = Mutex(false)
            if observe {
                withObservationTracking {
                    _ = notes.models
                } onChange: {
                    observedChange.withLock { $0 = true }
                }
            }
            removals = []
            changes = nil
            let cids = present.compactMap { notes.get(.int($0))?.cid }

            notes.set(input.map { ["id": .int($0), "round": .int(round)] })

            #expect(ids(notes.models) == expected.order, "round \(round)")
            #expect(removals.map(\.id) == expected.removed)
            #expect(removals.map(\.index) == expected.removeIndexes)
            let lists = try #require(changes)
            #expect(ids(lists.added) == expected.added)
            #expect(ids(lists.merged) == expected.merged)
            #expect(ids(lists.removed) == expected.removed)
            for model in notes.models {
                #expect(notes.get(model.id ?? .null) === model)
                #expect(notes.get(.string(model.cid)) === model)
            }
            for id in expected.removed { #expect(notes.get(.int(id)) == nil) }
            for cid in cids where notes.get(.string(cid)).map({ !Set(input).contains($0.id?.intValue ?? -1) }) ?? false
            {
                Issue.record("a removed model is still indexed by its client id \(cid)")
            }
            if hold { #expect(ids(held) == heldIDs, "the caller's array changed") }
            if observe && expected.order != present { #expect(observedChange.withLock { $0 }) }
            present = expected.order
        }
    }

    @Test(arguments: [11, 12] as [UInt64]) func randomSetsMatchBackbonesSet(seed: UInt64) throws {
        try runRounds(observe: false, hold: false, seed: seed)
    }

    @Test(arguments: [11, 12] as [UInt64]) func randomSetsMatchBackbonesSetWhileObserved(seed: UInt64) throws {
        try runRounds(observe: true, hold: false, seed: seed)
    }

    @Test(arguments: [11, 12] as [UInt64]) func randomSetsLeaveAModelsArrayTheCallerHoldsAsItWas(seed: UInt64) throws {
        try runRounds(observe: false, hold: true, seed: seed)
    }

    @Test func aSetFromAnUpdateHandlerSeesAndLeavesTheIndexesRight() {
        let notes = Collection<Model>((0..<100).map { ["id": .int($0)] })
        var nested = false
        notes.on("update") { _ in
            guard !nested else { return }
            nested = true
            notes.set((150..<400).map { ["id": .int($0)] })
        }

        notes.set((50..<200).map { ["id": .int($0)] })

        #expect(ids(notes.models) == Array(150..<400))
        for id in 0..<450 {
            #expect((notes.get(.int(id)) != nil) == (150..<400).contains(id))
        }
        for model in notes.models { #expect(notes.get(.string(model.cid)) === model) }
    }

    @Test func anIDChangedByAMergeHandlerIsIndexedUnderItsNewID() {
        let notes = Collection<Model>((0..<10).map { ["id": .int($0)] })
        let renamed = notes.get(3)
        // Model 3 is merged (and kept) before model 5's merge renames it.
        notes.get(5)?.on("change") { _ in renamed?.set(["id": 1_000]) }

        notes.set((2..<12).map { ["id": .int($0), "title": "v2"] })

        #expect(notes.models.count == 10)
        #expect(notes.models.contains { $0 === renamed })
        #expect(notes.get(1_000) === renamed)
        #expect(notes.get(3) == nil)
        #expect(notes.get(0) == nil)
        for model in notes.models {
            #expect(notes.get(model.id ?? .null) === model)
            #expect(notes.get(.string(model.cid)) === model)
        }
    }
}
