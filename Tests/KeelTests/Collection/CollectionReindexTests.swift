import Keel
import Testing

/// How a collection re-indexes a model whose id changes: by the id alone in a `Collection`
/// itself, through `modelID` in a subclass, and never leaving an earlier id behind.
struct CollectionReindexTests {
    @Test func anIDChangedAgainByAHandlerLeavesNoEarlierIDIndexed() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        var changedAgain = false
        model.on("change:id") { _ in
            guard !changedAgain else { return }
            changedAgain = true
            model.set(["id": 3])
        }

        model.set(["id": 2])

        #expect(collection.get(3) === model)
        #expect(collection.get(2) == nil)
        #expect(collection.get(1) == nil)
    }

    @Test func aNewModelsFirstIDIsIndexedAndANullIDIsNot() {
        let model = Model(["title": "a"])
        let collection = Collection<Model>([model])

        model.set(["id": 7])
        #expect(collection.get(7) === model)

        model.set(["id": nil])
        #expect(collection.get(7) == nil)
        #expect(collection.get(nil) == nil)
        #expect(collection.get(model) === model)
    }
}
