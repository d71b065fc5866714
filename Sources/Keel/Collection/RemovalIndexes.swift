/// The `remove` indexes of the models a smart `set` removes, in the order it removes them
/// (collection order).
///
/// A removed model's index is its position had the models before it been removed one by one:
/// the number of kept models before it. That number never falls, and grows only where kept
/// models lie between two removed ones, so the list keeps one step a run of removed models
/// instead of one position a model: a `set` that leaves out the first half of a collection
/// keeps a single step.
///
/// ```swift
/// var indexes = RemovalIndexes()
/// indexes.noteRemoval(at: 0, keptBefore: 0)  // [removed, removed, kept, removed]
/// indexes.noteRemoval(at: 1, keptBefore: 0)
/// indexes.noteRemoval(at: 2, keptBefore: 1)
/// indexes.index(at: 1)  // 0
/// indexes.index(at: 2)  // 1
/// ```
struct RemovalIndexes {
    /// Where the index changes: the offset of a removed model in the removal order, and the
    /// index of it and of the ones after it, up to the next step.
    private var steps: [(offset: Int, index: Int)] = []
    /// The index of the last removed model noted; -1 before the first.
    private var lastIndex = -1
    /// The step that ``index(at:)`` read last.
    private var cursor = 0

    /// Notes that the removed model at `offset` in the removal order (one past the last one
    /// noted) has `keptBefore` kept models before it.
    @inline(__always)
    mutating func noteRemoval(at offset: Int, keptBefore: Int) {
        guard keptBefore != lastIndex else { return }
        steps.append((offset, keptBefore))
        lastIndex = keptBefore
    }

    /// The `remove` index of the removed model at `offset` in the removal order; asked for
    /// offsets in increasing order, it walks the steps once.
    mutating func index(at offset: Int) -> Int {
        if steps[cursor].offset > offset { cursor = 0 }
        while cursor + 1 < steps.count && steps[cursor + 1].offset <= offset { cursor += 1 }
        return steps[cursor].index
    }
}
