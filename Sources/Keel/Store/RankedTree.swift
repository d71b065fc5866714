/// A sequence kept in order by a balanced tree: finding a position, inserting, removing and
/// reading the element at a position all cost O(log *n*).
///
/// A treap ordered by position (each node knows the size of its subtree), with parent links,
/// so that a node's position is found from the node itself. That is what lets a live query
/// move a model whose sort key has just changed: its old place can no longer be found by
/// comparing keys, but it can be found by walking up from its node.
///
/// The nodes live in arrays and link to each other by index, so that walking and
/// rebalancing the tree retains and releases nothing: with a class per node and weak parent
/// links, reference counting took most of a live query's time to place a model. The arrays
/// are in a non-generic ``RankedTreeStorage``, so that the tree's code is compiled for that
/// one type and never runs through generic metadata, as it would inside a generic live query.
struct RankedTree<Element: AnyObject> {
    typealias Node = RankedTreeStorage.Node

    private var storage = RankedTreeStorage()

    /// The number of elements.
    var count: Int { storage.count }

    /// The element of `node`.
    subscript(node: Node) -> Element {
        unsafeDowncast(storage[node], to: Element.self)
    }

    /// The element at `rank`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log *n*) expected.
    func element(at rank: Int) -> Element {
        unsafeDowncast(storage[storage.node(at: rank)], to: Element.self)
    }

    /// The position of `node`.
    ///
    /// - Complexity: O(log *n*) expected.
    func rank(of node: Node) -> Int { storage.rank(of: node) }

    /// The node at `rank`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log *n*) expected.
    func node(at rank: Int) -> Node { storage.node(at: rank) }

    /// The number of elements that come before a new element, given whether the new element
    /// comes before an element already in the tree.
    ///
    /// - Complexity: O(log *n*) calls of `comesBefore`, expected.
    func insertionRank(_ comesBefore: (Element) -> Bool) -> Int {
        storage.insertionRank { comesBefore(unsafeDowncast($0, to: Element.self)) }
    }

    /// Inserts `element` at `rank` and returns its node.
    ///
    /// - Complexity: O(log *n*) expected.
    @discardableResult
    mutating func insert(_ element: Element, at rank: Int) -> Node {
        storage.insert(element, at: rank)
    }

    /// Removes `node` from the tree; its handle is no longer valid.
    ///
    /// - Complexity: O(log *n*) expected.
    mutating func remove(_ node: Node) { storage.remove(node) }

    /// Removes every element.
    mutating func removeAll() { storage.removeAll() }

    /// Replaces the elements with `elements`, in that order, and returns their nodes, in
    /// the same order.
    ///
    /// - Complexity: O(*n*).
    mutating func rebuild(_ elements: [Element]) -> [Node] {
        storage.rebuild(elements)
    }

    /// The elements in order.
    ///
    /// - Complexity: O(*n*).
    var elements: [Element] { elements(in: 0..<count) }

    /// The elements at positions `range`, in order.
    ///
    /// - Complexity: O(log *n* + *k*) for *k* elements.
    func elements(in range: Range<Int>) -> [Element] {
        storage.elements(in: range).map { unsafeDowncast($0, to: Element.self) }
    }
}

/// The arrays of a ``RankedTree``: the links of each node by slot, and its element.
struct RankedTreeStorage {
    /// A handle on one element in the tree, valid until that element is removed.
    struct Node: Equatable {
        fileprivate let slot: Int
    }

    /// The links of one node; `none` where there is no node.
    private struct Links {
        var left = none
        var right = none
        var parent = none
        var size = 1
        let priority: UInt64
    }

    private static var none: Int { -1 }

    private var links: [Links] = []
    /// The element of each slot; `nil` for a free slot.
    private var items: [AnyObject?] = []
    /// Slots of removed nodes, reused first.
    private var freeSlots: [Int] = []
    private var root = Self.none
    /// The state of the priority generator (xorshift), seeded so that runs are reproducible.
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The number of elements.
    var count: Int { size(root) }

    /// The element of `node`.
    subscript(node: Node) -> AnyObject {
        items[node.slot].unsafelyUnwrapped
    }

    /// The position of `node`.
    ///
    /// - Complexity: O(log *n*) expected.
    func rank(of node: Node) -> Int {
        var rank = size(links[node.slot].left)
        var current = node.slot
        while case let parent = links[current].parent, parent != Self.none {
            if links[parent].right == current { rank += size(links[parent].left) + 1 }
            current = parent
        }
        return rank
    }

    /// The node at `rank`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log *n*) expected.
    func node(at rank: Int) -> Node {
        var rank = rank
        var current = root
        while current != Self.none {
            let leftSize = size(links[current].left)
            if rank < leftSize {
                current = links[current].left
            } else if rank == leftSize {
                return Node(slot: current)
            } else {
                rank -= leftSize + 1
                current = links[current].right
            }
        }
        preconditionFailure("RankedTree: position out of range")
    }

    /// The number of elements that come before a new element, given whether the new element
    /// comes before an element already in the tree.
    ///
    /// - Complexity: O(log *n*) calls of `comesBefore`, expected.
    func insertionRank(_ comesBefore: (AnyObject) -> Bool) -> Int {
        var rank = 0
        var current = root
        while current != Self.none {
            if comesBefore(items[current].unsafelyUnwrapped) {
                current = links[current].left
            } else {
                rank += size(links[current].left) + 1
                current = links[current].right
            }
        }
        return rank
    }

    /// Inserts `element` at `rank` and returns its node.
    ///
    /// - Complexity: O(log *n*) expected.
    @discardableResult
    mutating func insert(_ element: AnyObject, at rank: Int) -> Node {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            links[slot] = Links(priority: seed)
            items[slot] = element
        } else {
            slot = links.count
            links.append(Links(priority: seed))
            items.append(element)
        }
        root = insert(slot, at: rank, into: root)
        links[root].parent = Self.none
        return Node(slot: slot)
    }

    /// Removes `node` from the tree; its handle is no longer valid.
    ///
    /// - Complexity: O(log *n*) expected.
    mutating func remove(_ node: Node) {
        let slot = node.slot
        let merged = merge(links[slot].left, links[slot].right)
        let parent = links[slot].parent
        if merged != Self.none { links[merged].parent = parent }
        if parent == Self.none {
            root = merged
        } else if links[parent].left == slot {
            links[parent].left = merged
        } else {
            links[parent].right = merged
        }
        var ancestor = parent
        while ancestor != Self.none {
            links[ancestor].size -= 1
            ancestor = links[ancestor].parent
        }
        items[slot] = nil
        freeSlots.append(slot)
    }

    /// Removes every element.
    mutating func removeAll() {
        links.removeAll()
        items.removeAll()
        freeSlots.removeAll()
        root = Self.none
    }

    /// Replaces the elements with `elements`, in that order, and returns their nodes, in
    /// the same order.
    ///
    /// The treap is built bottom-up in one pass (the Cartesian tree of the priorities): each
    /// new node goes at the end of the right spine, under the last spine node of higher
    /// priority, with the lower ones it displaces as its left subtree. A displaced node's
    /// subtree is complete when it leaves the spine, so its size is set then.
    ///
    /// - Complexity: O(*n*).
    mutating func rebuild(_ elements: [AnyObject]) -> [Node] {
        removeAll()
        links.reserveCapacity(elements.count)
        items.reserveCapacity(elements.count)
        var spine: [Int] = []
        for element in elements {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            let slot = links.count
            links.append(Links(priority: seed))
            items.append(element)
            var displaced = Self.none
            while let last = spine.last, links[last].priority < seed {
                spine.removeLast()
                resize(last)
                displaced = last
            }
            setLeft(slot, displaced)
            if let last = spine.last { setRight(last, slot) }
            spine.append(slot)
        }
        root = spine.first ?? Self.none
        while let last = spine.popLast() { resize(last) }
        return (0..<elements.count).map { Node(slot: $0) }
    }

    /// The elements at positions `range`, in order.
    ///
    /// - Complexity: O(log *n* + *k*) for *k* elements.
    func elements(in range: Range<Int>) -> [AnyObject] {
        guard !range.isEmpty else { return [] }
        var result: [AnyObject] = []
        result.reserveCapacity(range.count)
        var slot = node(at: range.lowerBound).slot
        while slot != Self.none, result.count < range.count {
            result.append(items[slot].unsafelyUnwrapped)
            slot = successor(of: slot)
        }
        return result
    }

    // MARK: - Links

    private func size(_ slot: Int) -> Int {
        slot == Self.none ? 0 : links[slot].size
    }

    /// The slot after `slot`, in order.
    private func successor(of slot: Int) -> Int {
        var next = links[slot].right
        if next != Self.none {
            while links[next].left != Self.none { next = links[next].left }
            return next
        }
        var current = slot
        while case let parent = links[current].parent, parent != Self.none {
            if links[parent].left == current { return parent }
            current = parent
        }
        return Self.none
    }

    private mutating func setLeft(_ slot: Int, _ child: Int) {
        links[slot].left = child
        if child != Self.none { links[child].parent = slot }
    }

    private mutating func setRight(_ slot: Int, _ child: Int) {
        links[slot].right = child
        if child != Self.none { links[child].parent = slot }
    }

    private mutating func resize(_ slot: Int) {
        links[slot].size = 1 + size(links[slot].left) + size(links[slot].right)
    }

    /// Puts the single node `slot` at `rank` of `tree`, and returns the tree's new root:
    /// down the path to `rank` until the node's priority puts it above the rest, where the
    /// rest is split around it.
    private mutating func insert(_ slot: Int, at rank: Int, into tree: Int) -> Int {
        if tree == Self.none { return slot }
        if links[slot].priority > links[tree].priority {
            let (before, after) = split(tree, rank)
            setLeft(slot, before)
            setRight(slot, after)
            resize(slot)
            return slot
        }
        let leftSize = size(links[tree].left)
        if rank <= leftSize {
            setLeft(tree, insert(slot, at: rank, into: links[tree].left))
        } else {
            setRight(tree, insert(slot, at: rank - leftSize - 1, into: links[tree].right))
        }
        links[tree].size += 1
        return tree
    }

    /// The first `count` elements of `tree` and the rest, as two trees.
    private mutating func split(_ tree: Int, _ count: Int) -> (Int, Int) {
        guard tree != Self.none else { return (Self.none, Self.none) }
        let leftSize = size(links[tree].left)
        if count <= leftSize {
            let (before, after) = split(links[tree].left, count)
            setLeft(tree, after)
            resize(tree)
            if before != Self.none { links[before].parent = Self.none }
            return (before, tree)
        }
        let (before, after) = split(links[tree].right, count - leftSize - 1)
        setRight(tree, before)
        resize(tree)
        if after != Self.none { links[after].parent = Self.none }
        return (tree, after)
    }

    /// The elements of `first` followed by those of `second`, as one tree.
    private mutating func merge(_ first: Int, _ second: Int) -> Int {
        guard first != Self.none else { return second }
        guard second != Self.none else { return first }
        if links[first].priority > links[second].priority {
            setRight(first, merge(links[first].right, second))
            resize(first)
            return first
        }
        setLeft(second, merge(first, links[second].left))
        resize(second)
        return second
    }
}
