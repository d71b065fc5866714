import Testing

@testable import Keel

/// The in-place permutation a collection's sort applies moves every model to its new
/// position, whatever the shape of the permutation's cycles, keeps each model alive exactly
/// once, and leaves a copy of the array that shares its storage as it was.
struct ModelPermutationTests {
    @Test(arguments: [0, 1, 2, 3, 17, 1_000])
    func matchesReadingTheModelsInTheGivenOrder(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var models = (0..<count).map { Model(["n": .int($0)]) }
            let order = ContiguousArray((0..<count).shuffled(using: &generator))
            let expected = order.map { models[$0] }
            ModelPermutation.apply(order, to: &models)
            #expect(models.elementsEqual(expected) { $0 === $1 })
        }
    }

    @Test func handlesTheIdentityOneLongCycleAndSwaps() {
        let models = (0..<6).map { Model(["n": .int($0)]) }
        let orders: [ContiguousArray<Int>] = [
            [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0], [1, 0, 3, 2, 5, 4], [5, 4, 3, 2, 1, 0],
        ]
        for order in orders {
            var permuted = models
            ModelPermutation.apply(order, to: &permuted)
            #expect(permuted.map { $0["n"]?.intValue } == order.map { Optional($0) })
        }
    }

    @Test func leavesASharedCopyUnchanged() {
        var models = (0..<4).map { Model(["n": .int($0)]) }
        let copy = models
        ModelPermutation.apply([3, 2, 1, 0], to: &models)
        #expect(copy.map { $0["n"]?.intValue } == [0, 1, 2, 3])
        #expect(models.map { $0["n"]?.intValue } == [3, 2, 1, 0])
    }

    @Test func keepsEveryModelAliveOnceAndFreesThemWithTheArray() {
        weak var first: Model?
        weak var last: Model?
        do {
            var models = (0..<100).map { Model(["n": .int($0)]) }
            first = models[0]
            last = models[99]
            ModelPermutation.apply(ContiguousArray((0..<100).reversed()), to: &models)
            #expect(models[0] === last)
            #expect(models[99] === first)
            for index in models.indices { #expect(isKnownUniquelyReferenced(&models[index])) }
        }
        #expect(first == nil)
        #expect(last == nil)
    }
}
