import Keel
import Testing

/// Code that a collection calls while it updates its models (a comparator, a merge's
/// `change` handler, a `remove` handler during `set`) cannot change the collection: the
/// change is rejected, a sort in progress throws, and the indexes stay in step with the
/// models.
struct CollectionReentrancyTests {
    /// Every model can be found by id and client id, and ids are unique.
    private static func expectConsistent(_ collection: Collection<Model>) {
        let models = collection.models
        #expect(Set(models.map(\.cid)).count == models.count)
        for model in models {
            #expect(collection.get(model) === model)
            #expect(collection.get(.string(model.cid)) === model)
            if let id = model.id { #expect(collection.get(id) === model) }
        }
    }

    @Test func aComparatorThatRemovesByIDOrAMissingModelMakesSortThrow() {
        let collection = Collection<Model>((0..<4).map { ["id": .int($0), "rank": .int(3 - $0)] })
        var removals: [Model?] = []
        collection.comparator = .ordered { lhs, rhs in
            if removals.isEmpty {
                removals.append(collection.remove(.int(1)))
                removals.append(collection.remove(.int(99)))
                removals.append(collection.remove(Model(["id": 98])))
            }
            return (lhs["rank"]?.intValue ?? 0) < (rhs["rank"]?.intValue ?? 0)
        }

        #expect(throws: CollectionError.reentrantMutation) { try collection.sort() }
        #expect(removals.count == 3 && removals.allSatisfy { $0 == nil })
        #expect(collection.pluck("id") == [0, 1, 2, 3])
        collection.comparator = .ordered { _, _ in
            _ = collection.remove(.int(99))
            return false
        }
        #expect(throws: CollectionError.reentrantMutation) { try collection.sort() }
        Self.expectConsistent(collection)
    }

    @Test func aComparatorThatRemovesAModelMakesSortThrowAndChangesNothing() {
        let collection = Collection<Model>((0..<6).map { ["id": .int($0), "rank": .int(5 - $0)] })
        let victim = collection.get(2) ?? Model()
        var removals: [Model?] = []
        collection.comparator = .ordered { lhs, rhs in
            if removals.isEmpty { removals.append(collection.remove(victim)) }
            return (lhs["rank"]?.intValue ?? 0) < (rhs["rank"]?.intValue ?? 0)
        }
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }

        #expect(throws: CollectionError.reentrantMutation) { try collection.sort() }
        #expect(removals.count == 1 && removals[0] == nil)
        #expect(sorts == 0)
        #expect(collection.pluck("id") == [0, 1, 2, 3, 4, 5])
        #expect(victim.collection === collection)
        Self.expectConsistent(collection)
        // The model can still be removed afterwards.
        collection.comparator = nil
        #expect(collection.remove(victim) === victim)
        #expect(collection.get(2) == nil)
        Self.expectConsistent(collection)
    }

    @Test func aComparatorThatAddsAModelMakesSortThrowAndAddsNothing() {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        var added: [Model?] = []
        collection.comparator = .value { model in
            if added.isEmpty { added.append(collection.add(["id": 1, "copy": true])) }
            if added.count == 1 { added.append(collection.add(["id": 3])) }
            return model.id
        }
        #expect(throws: CollectionError.reentrantMutation) { try collection.sort() }
        #expect(added.allSatisfy { $0 == nil })
        #expect(collection.count == 2)
        #expect(collection.get(3) == nil)
        Self.expectConsistent(collection)
    }

    @Test func aComparatorThatSortsOrResetsIsRejected() {
        let collection = Collection<Model>([["id": 2], ["id": 1]])
        var innerErrors: [CollectionError] = []
        var resets: [[Model]] = []
        collection.comparator = .value { model in
            do throws(CollectionError) {
                try collection.sort()
            } catch {
                innerErrors.append(error)
            }
            if resets.isEmpty { resets.append(collection.reset()) }
            return model.id
        }
        #expect(throws: CollectionError.reentrantMutation) { try collection.sort() }
        #expect(!innerErrors.isEmpty && innerErrors.allSatisfy { $0 == .reentrantMutation })
        #expect(resets.count == 1 && resets[0].isEmpty)
        #expect(collection.pluck("id") == [2, 1])
        Self.expectConsistent(collection)
    }

    @Test func aComparatorDuringAddCannotChangeTheCollection() {
        let collection = Collection<Model>([["id": 1, "rank": 1], ["id": 3, "rank": 3]])
        var popped: [Model?] = []
        collection.comparator = .key { model in
            if popped.isEmpty { popped.append(collection.pop()) }
            return model["rank"]?.intValue ?? 0
        }
        collection.add(["id": 2, "rank": 2])
        #expect(popped.count == 1 && popped[0] == nil)
        #expect(collection.pluck("id") == [1, 2, 3])
        Self.expectConsistent(collection)
        // Once the sort is over, the collection accepts changes again.
        collection.comparator = nil
        #expect(collection.pop()?.id == 3)
    }

    @Test func aChangeHandlerDuringAMergeCannotRemoveModels() {
        let collection = Collection<Model>([["id": 1, "v": 0], ["id": 2, "v": 0], ["id": 3, "v": 0]])
        var removed: [Model?] = []
        collection.on("change:v") { event in
            removed.append(collection.remove(event.model ?? Model()))
            removed.append(collection.remove(JSONValue.int(4)))
        }
        collection.set([["id": 1, "v": 1], ["id": 2, "v": 1], ["id": 4]], at: 0)
        #expect(removed.count == 4 && removed.allSatisfy { $0 == nil })
        #expect(collection.pluck("id") == [1, 2, 4])
        Self.expectConsistent(collection)
        // Outside `set`, the same handler removes.
        collection.get(1)?.set(["v": 2])
        #expect(collection.get(1) == nil)
        Self.expectConsistent(collection)
    }

    @Test func aRemoveHandlerDuringSetCannotResetTheCollection() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        var resets: [[Model]] = []
        collection.on("remove") { _ in resets.append(collection.reset([["id": 9]])) }
        collection.set([["id": 1], ["id": 5]])
        #expect(resets.count == 2 && resets.allSatisfy(\.isEmpty))
        #expect(collection.pluck("id") == [1, 5])
        Self.expectConsistent(collection)
    }

    @Test func addAndUpdateHandlersRunAfterTheUpdateAndMayChangeTheCollection() {
        let collection = Collection<Model>([["id": 1]])
        collection.on("add") { event in
            if event.model?.id == 2 { collection.add(["id": 3]) }
        }
        collection.on("update") { _ in
            if collection.get(1) != nil { collection.remove(JSONValue.int(1)) }
        }
        collection.add(["id": 2])
        #expect(collection.pluck("id") == [2, 3])
        Self.expectConsistent(collection)
    }
}
