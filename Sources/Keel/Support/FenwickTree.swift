/// Marks positions and counts the marked ones below a position, both in O(log *n*): a
/// binary indexed tree over 0 and 1 flags.
///
/// A collection uses it to turn positions in an array with holes into positions among the
/// models that remain, and to report the index each removed model had at its turn.
struct FenwickTree {
    /// `tree[i]` counts the marks of positions `i - (i & -i) ..< i`; `tree[0]` is unused.
    private var tree: [Int]

    /// Creates a tree of `count` unmarked positions.
    init(count: Int) { tree = Array(repeating: 0, count: count + 1) }

    /// Creates a tree whose position `i` is marked when `isMarked(i)` is `true`, in O(*n*).
    init(count: Int, isMarked: (Int) -> Bool) {
        tree = Array(repeating: 0, count: count + 1)
        var node = 1
        while node <= count {
            if isMarked(node - 1) { tree[node] += 1 }
            let parent = node + (node & -node)
            if parent <= count { tree[parent] += tree[node] }
            node += 1
        }
    }

    /// How many positions the tree covers.
    var count: Int { tree.count - 1 }

    /// How many positions below `index` are marked.
    func prefixSum(upTo index: Int) -> Int {
        precondition(index < tree.count, "FenwickTree: index out of range")
        return tree.withUnsafeBufferPointer { tree in
            var sum = 0
            var position = index
            while position > 0 {
                sum += tree[position]
                position -= position & -position
            }
            return sum
        }
    }

    /// Marks `index`, which must be unmarked.
    mutating func increment(at index: Int) { add(1, at: index) }

    /// Unmarks `index`, which must be marked.
    mutating func decrement(at index: Int) { add(-1, at: index) }

    /// Adds `delta` to the nodes that cover `index`, through the buffer: indexing the array
    /// checked its bounds and its uniqueness at each of the O(log *n*) nodes.
    private mutating func add(_ delta: Int, at index: Int) {
        tree.withUnsafeMutableBufferPointer { tree in
            var position = index + 1
            while position < tree.count {
                tree[position] += delta
                position += position & -position
            }
        }
    }

    /// The position of the unmarked position that has `rank` unmarked positions below it.
    ///
    /// Positions past ``count`` count as unmarked, so the result may lie beyond it.
    func unmarked(rank: Int) -> Int {
        var position = 0
        var remaining = rank + 1
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count, step - tree[next] < remaining {
                position = next
                remaining -= step - tree[next]
            }
            step /= 2
        }
        return position + remaining - 1
    }
}
