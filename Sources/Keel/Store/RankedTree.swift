/// A sequence kept in order by a balanced tree: finding a position, inserting, removing and
/// reading the element at a position all cost O(log *n*).
///
/// A treap ordered by position (each node knows the size of its subtree), with parent links,
/// so that a node's position is found from the node itself. That is what lets a live query
/// move a model whose sort key has just changed: its old place can no longer be found by
/// comparing keys, but it can be found by walking up from its node.
struct RankedTree<Element: AnyObject> {
    /// One element in the tree.
    final class Node {
        let element: Element
        fileprivate let priority: UInt64
        fileprivate var left: Node?
        fileprivate var right: Node?
        fileprivate weak var parent: Node?
        fileprivate var size = 1

        fileprivate init(_ element: Element, priority: UInt64) {
            self.element = element
            self.priority = priority
        }

        fileprivate func setLeft(_ node: Node?) {
            left = node
            node?.parent = self
        }

        fileprivate func setRight(_ node: Node?) {
            right = node
            node?.parent = self
        }

        fileprivate func resize() {
            size = 1 + (left?.size ?? 0) + (right?.size ?? 0)
        }
    }

    private var root: Node?
    /// The state of the priority generator (xorshift), seeded so that runs are reproducible.
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The number of elements.
    var count: Int { root?.size ?? 0 }

    /// The position of `node`.
    ///
    /// - Complexity: O(log *n*) expected.
    func rank(of node: Node) -> Int {
        var rank = node.left?.size ?? 0
        var current = node
        while let parent = current.parent {
            if parent.right === current { rank += (parent.left?.size ?? 0) + 1 }
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
        while let node = current {
            let leftSize = node.left?.size ?? 0
            if rank < leftSize {
                current = node.left
            } else if rank == leftSize {
                return node
            } else {
                rank -= leftSize + 1
                current = node.right
            }
        }
        preconditionFailure("RankedTree: position out of range")
    }

    /// The number of elements that come before a new element, given whether the new element
    /// comes before an element already in the tree.
    ///
    /// - Complexity: O(log *n*) calls of `comesBefore`, expected.
    func insertionRank(_ comesBefore: (Element) -> Bool) -> Int {
        var rank = 0
        var current = root
        while let node = current {
            if comesBefore(node.element) {
                current = node.left
            } else {
                rank += (node.left?.size ?? 0) + 1
                current = node.right
            }
        }
        return rank
    }

    /// Inserts `element` at `rank` and returns its node.
    ///
    /// - Complexity: O(log *n*) expected.
    @discardableResult
    mutating func insert(_ element: Element, at rank: Int) -> Node {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        let node = Node(element, priority: seed)
        let (before, after) = Self.split(root, rank)
        root = Self.merge(Self.merge(before, node), after)
        root?.parent = nil
        return node
    }

    /// Removes `node` from the tree.
    ///
    /// - Complexity: O(log *n*) expected.
    mutating func remove(_ node: Node) {
        let rank = rank(of: node)
        let (before, rest) = Self.split(root, rank)
        let (_, after) = Self.split(rest, 1)
        root = Self.merge(before, after)
        root?.parent = nil
        node.left = nil
        node.right = nil
        node.parent = nil
        node.size = 1
    }

    /// Removes every element.
    mutating func removeAll() {
        root = nil
    }

    /// The elements in order.
    ///
    /// - Complexity: O(*n*).
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        var stack: [Node] = []
        var current = root
        while current != nil || !stack.isEmpty {
            while let node = current {
                stack.append(node)
                current = node.left
            }
            let node = stack.removeLast()
            result.append(node.element)
            current = node.right
        }
        return result
    }

    /// The elements at positions `range`, in order.
    ///
    /// - Complexity: O(log *n* + *k*) for *k* elements.
    func elements(in range: Range<Int>) -> [Element] {
        guard !range.isEmpty else { return [] }
        var result: [Element] = []
        result.reserveCapacity(range.count)
        var node: Node? = self.node(at: range.lowerBound)
        while let current = node, result.count < range.count {
            result.append(current.element)
            node = Self.successor(of: current)
        }
        return result
    }

    /// The node after `node`, in order.
    private static func successor(of node: Node) -> Node? {
        if var next = node.right {
            while let left = next.left { next = left }
            return next
        }
        var current = node
        while let parent = current.parent {
            if parent.left === current { return parent }
            current = parent
        }
        return nil
    }

    /// The first `count` elements of `tree` and the rest, as two trees.
    private static func split(_ tree: Node?, _ count: Int) -> (Node?, Node?) {
        guard let tree else { return (nil, nil) }
        let leftSize = tree.left?.size ?? 0
        if count <= leftSize {
            let (before, after) = split(tree.left, count)
            tree.setLeft(after)
            tree.resize()
            before?.parent = nil
            return (before, tree)
        }
        let (before, after) = split(tree.right, count - leftSize - 1)
        tree.setRight(before)
        tree.resize()
        after?.parent = nil
        return (tree, after)
    }

    /// The elements of `first` followed by those of `second`, as one tree.
    private static func merge(_ first: Node?, _ second: Node?) -> Node? {
        guard let first else { return second }
        guard let second else { return first }
        if first.priority > second.priority {
            first.setRight(merge(first.right, second))
            first.resize()
            return first
        }
        second.setLeft(merge(first, second.left))
        second.resize()
        return second
    }
}
