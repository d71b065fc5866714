import Testing

@testable import Keel

@Suite("Model indexes")
struct ModelIndexTests {
    @Test func denseKeysAreFoundAndRemoved() {
        var index = IntKeyedModels()
        let models = (0..<100).map { _ in Model() }
        for (key, model) in models.enumerated() { index.insert(model, forKey: key + 1) }
        #expect(index.count == 100)
        for (key, model) in models.enumerated() { #expect(index[key + 1] === model) }
        #expect(index[0] == nil)
        #expect(index[101] == nil)
        index.remove(models[9], forKey: 10)
        #expect(index[10] == nil)
        #expect(index.count == 99)
    }

    @Test func farKeysAndKeysBelowTheBaseGoToTheDictionary() {
        var index = IntKeyedModels()
        let (low, mid, high, extreme) = (Model(), Model(), Model(), Model())
        index.insert(mid, forKey: 1_000)
        index.insert(low, forKey: -5)
        index.insert(high, forKey: 9_000_000)
        index.insert(extreme, forKey: .min)
        #expect(index[1_000] === mid)
        #expect(index[-5] === low)
        #expect(index[9_000_000] === high)
        #expect(index[.min] === extreme)
        #expect(index[.max] == nil)
        #expect(index.count == 4)
    }

    @Test func aKeyStoredFarAwayIsFoundAfterTheSlotsGrowOverIt() {
        var index = IntKeyedModels()
        let models = (0..<200).map { _ in Model() }
        index.insert(models[150], forKey: 150)
        index.insert(models[0], forKey: 0)
        for key in 1..<150 { index.insert(models[key], forKey: key) }
        for key in 151..<200 { index.insert(models[key], forKey: key) }
        #expect(index.count == 200)
        for key in 0..<200 { #expect(index[key] === models[key]) }

        let replacement = Model()
        index.insert(replacement, forKey: 150)
        #expect(index[150] === replacement)
        #expect(index.count == 200)
        index.remove(models[150], forKey: 150)
        #expect(index[150] === replacement, "removing a model that is no longer indexed changes nothing")
        index.remove(replacement, forKey: 150)
        #expect(index[150] == nil)
        #expect(index.count == 199)
    }

    @Test func keysCountingUpOntoOneInTheDictionaryKeepItInOnePlace() {
        var index = IntKeyedModels()
        let models = (0..<41).map { _ in Model() }
        for key in 0..<10 { index.insert(models[key], forKey: key) }
        index.insert(models[40], forKey: 40)
        for key in 10..<40 { index.insert(models[key], forKey: key) }
        #expect(index.count == 41)
        let replacement = Model()
        index.insert(replacement, forKey: 40)
        #expect(index.count == 41)
        #expect(index[40] === replacement)
        index.remove(replacement, forKey: 40)
        #expect(index[40] == nil)
        #expect(index.count == 40)
    }

    @Test func keysCountingUpToTheLargestIntegerDoNotWrapAround() {
        var index = IntKeyedModels()
        let (high, highest, lowest) = (Model(), Model(), Model())
        index.insert(high, forKey: .max - 1)
        index.insert(highest, forKey: .max)
        index.insert(lowest, forKey: .min)
        #expect(index[.max - 1] === high)
        #expect(index[.max] === highest)
        #expect(index[.min] === lowest)
        #expect(index.count == 3)
    }

    @Test func removingEveryModelLetsTheNextKeyStartTheSlots() {
        var index = IntKeyedModels()
        let first = Model()
        index.insert(first, forKey: 7)
        index.remove(first, forKey: 7)
        #expect(index.count == 0)
        let far = Model()
        index.insert(far, forKey: 5_000_000)
        #expect(index[5_000_000] === far)
        #expect(index[7] == nil)
    }

    @Test func idsEqualAsJSONShareOneEntry() {
        var index = ModelIDIndex()
        let (number, text, object) = (Model(), Model(), Model())
        index.insert(number, forID: 1)
        index.insert(text, forID: "1")
        index.insert(object, forID: ["kind": "a", "id": 1])
        #expect(index[1.0] === number)
        #expect(index["1"] === text)
        #expect(index[["id": 1, "kind": "a"]] === object)
        #expect(index[1.5] == nil)
        index.remove(number, forID: 1.0)
        #expect(index[1] == nil)
        #expect(index["1"] === text)
    }
}
