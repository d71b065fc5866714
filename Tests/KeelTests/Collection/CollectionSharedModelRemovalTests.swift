import Keel
import Testing

/// Removals from the middle of collections that share models: each collection finds a
/// model's slot from the hint the model keeps, which another collection may have written
/// since, and from a table of its own once a hint has missed.
struct CollectionSharedModelRemovalTests {
    private static func models(_ count: Int) -> [Model] {
        (0..<count).map { Model(["id": .int($0)]) }
    }

    private static func ids(_ collection: Collection<Model>) -> [JSONValue?] {
        collection.models.map(\.id)
    }

    @Test func twoCollectionsOfTheSameModelsRemoveFromTheMiddleInTurn() {
        let models = Self.models(12)
        let first = Collection<Model>(models)
        let second = Collection<Model>(models.reversed())
        var firstIndexes: [Int?] = []
        var secondIndexes: [Int?] = []
        first.on("remove") { event in firstIndexes.append(event.index) }
        second.on("remove") { event in secondIndexes.append(event.index) }
        first.remove(3)
        second.remove(3)
        first.remove(7)
        second.remove(7)
        first.remove(5)
        second.remove(10)
        #expect(firstIndexes == [3, 6, 4])
        #expect(secondIndexes == [8, 4, 1])
        #expect(Self.ids(first) == [0, 1, 2, 4, 6, 8, 9, 10, 11])
        #expect(Self.ids(second) == [11, 9, 8, 6, 5, 4, 2, 1, 0])
    }

    @Test func aModelAppendedToBothSlottedCollectionsIsRemovedFromEach() {
        let models = Self.models(6)
        let first = Collection<Model>(models)
        let second = Collection<Model>(models)
        first.remove(1)
        second.remove(2)
        let added = Model(["id": 6])
        first.add(added)
        second.add(added)
        var indexes: [Int?] = []
        first.on("remove") { event in indexes.append(event.index) }
        second.on("remove") { event in indexes.append(event.index) }
        first.remove(4)
        first.remove(added)
        second.remove(added)
        second.remove(0)
        #expect(indexes == [3, 4, 5, 0])
        #expect(Self.ids(first) == [0, 2, 3, 5])
        #expect(Self.ids(second) == [1, 3, 4, 5])
        #expect(added.collection == nil)
    }

    @Test func indexOfFindsSharedModelsAndNoOthersAfterRemovalsFromTheMiddle() {
        let models = Self.models(8)
        let first = Collection<Model>(models)
        let second = Collection<Model>(Array(models[2...]))
        first.remove(1)
        second.remove(4)
        let outsider = Model(["id": 100])
        #expect(first.index(of: models[5]) == 4)
        #expect(second.index(of: models[5]) == 2)
        #expect(first.index(of: models[1]) == nil)
        #expect(second.index(of: models[4]) == nil)
        #expect(second.index(of: models[0]) == nil)
        #expect(first.index(of: outsider) == nil)
        #expect(first.index(of: models[7]) == 6)
        #expect(second.index(of: models[2]) == 0)
    }

    @Test func aModelRemovedTwiceFromASlottedCollectionIsRemovedOnce() {
        let models = Self.models(5)
        let collection = Collection<Model>(models)
        var indexes: [Int?] = []
        collection.on("remove") { event in indexes.append(event.index) }
        #expect(collection.remove(models[2]) === models[2])
        #expect(collection.remove(models[2]) == nil)
        #expect(collection.remove(models[3]) === models[3])
        #expect(collection.remove(models[3]) == nil)
        #expect(indexes == [2, 2])
        #expect(Self.ids(collection) == [0, 1, 4])
    }

    @Test func shiftAndPopOfSharedModelsKeepBothCollectionsInOrder() {
        let models = Self.models(10)
        let first = Collection<Model>(models)
        let second = Collection<Model>(models)
        first.remove(4)
        second.remove(5)
        #expect(first.shift() === models[0])
        #expect(second.pop() === models[9])
        #expect(second.shift() === models[0])
        #expect(first.pop() === models[9])
        first.remove(6)
        second.remove(6)
        #expect(Self.ids(first) == [1, 2, 3, 5, 7, 8])
        #expect(Self.ids(second) == [1, 2, 3, 4, 7, 8])
    }
    @Test func aModelAppendedAfterAHintMissedIsFoundInTheTable() {
        let models = Self.models(6)
        let first = Collection<Model>(models)
        let second = Collection<Model>(models.reversed())
        first.remove(2)
        second.remove(2)
        // The hints are now the second collection's: this removal misses and builds a table.
        first.remove(1)
        let other = Model(["id": 7])
        let added = Model(["id": 6])
        first.add(other)
        first.add(added)
        // Its hint becomes the second collection's slot, which holds `other` in the first.
        second.add(added)
        var indexes: [Int?] = []
        first.on("remove") { event in indexes.append(event.index) }
        first.remove(added)
        first.remove(4)
        #expect(first.index(of: other) == 3)
        first.remove(other)
        #expect(indexes == [5, 2, 3])
        #expect(Self.ids(first) == [0, 3, 5])
        #expect(Self.ids(second) == [5, 4, 3, 1, 0, 6])
    }
}
