@testable import Keel
import Testing

/// The ranked tree behind live queries stays equal to a plain array under thousands of
/// random inserts and removals, with every node's rank and every rank's node right.
struct RankedTreeTests {
    private final class Item {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func randomInsertsAndRemovalsMatchAnArray() {
        var tree = RankedTree<Item>()
        var mirror: [(item: Item, node: RankedTree<Item>.Node)] = []
        var random = CollectionTestRandom(seed: 33)
        for step in 0..<5_000 {
            if mirror.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                let rank = Int.random(in: 0...mirror.count, using: &random)
                let item = Item(step)
                let node = tree.insert(item, at: rank)
                mirror.insert((item, node), at: rank)
            } else {
                let index = Int.random(in: 0..<mirror.count, using: &random)
                tree.remove(mirror[index].node)
                mirror.remove(at: index)
            }
            #expect(tree.count == mirror.count)
            if step % 97 == 0 {
                #expect(tree.elements.map(\.value) == mirror.map(\.item.value))
                for (rank, entry) in mirror.enumerated() {
                    #expect(tree.rank(of: entry.node) == rank)
                    #expect(tree[tree.node(at: rank)] === entry.item)
                }
            }
        }
        let lower = mirror.count / 3
        #expect(tree.elements(in: lower..<(lower + 10)).map(\.value) == mirror[lower..<(lower + 10)].map(\.item.value))
        tree.removeAll()
        #expect(tree.count == 0 && tree.elements.isEmpty)
    }

    @Test func aSlotFreedByARemovalIsReusedWithoutDisturbingTheOthers() {
        var tree = RankedTree<Item>()
        let first = tree.insert(Item(1), at: 0)
        let second = tree.insert(Item(2), at: 1)
        tree.remove(first)
        let third = tree.insert(Item(3), at: 0)
        #expect(tree.elements.map(\.value) == [3, 2])
        #expect(tree.rank(of: second) == 1 && tree.rank(of: third) == 0)
        #expect(tree.element(at: 1).value == 2)
    }

    @Test func aRebuiltTreeHoldsTheElementsInOrderAndKeepsWorkingUnderInsertsAndRemovals() {
        var tree = RankedTree<Item>()
        tree.insert(Item(-1), at: 0)
        let items = (0..<1_000).map(Item.init)
        let nodes = tree.rebuild(items)
        #expect(tree.count == items.count)
        #expect(tree.elements.map(\.value) == Array(0..<1_000))
        for (rank, node) in nodes.enumerated() {
            #expect(tree.rank(of: node) == rank)
            #expect(tree[node] === items[rank])
        }
        tree.remove(nodes[10])
        let inserted = tree.insert(Item(5_000), at: 500)
        #expect(tree.rank(of: inserted) == 500)
        #expect(tree.elements.map(\.value) == Array(0..<10) + Array(11..<501) + [5_000] + Array(501..<1_000))
        #expect(tree.rebuild([]).isEmpty && tree.count == 0)
    }
}
