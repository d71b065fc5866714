/// Moving an array's elements into a new order in place: the floors' counterpart of Keel's
/// `ModelPermutation`.
///
/// The elements move along the permutation's cycles, each moved once, without a retain or
/// release, so a sort of records costs their keys and this pass, not a copy of the array.
enum InPlacePermutation {
    /// Puts the element at position `order[i]` at position `i`, for every `i`.
    ///
    /// `order` must be a permutation of the positions of `elements`; it is used up (each
    /// entry is complemented once followed).
    @inline(__always)
    static func apply<Element>(_ order: inout [Int], to elements: inout ContiguousArray<Element>) {
        elements.withUnsafeMutableBufferPointer { elements in
            order.withUnsafeMutableBufferPointer { order in
                guard let base = elements.baseAddress else { return }
                for start in order.indices where order[start] >= 0 {
                    let first = (base + start).move()
                    var hole = start
                    while true {
                        let source = order[hole]
                        order[hole] = ~source
                        if source == start {
                            (base + hole).initialize(to: first)
                            break
                        }
                        (base + hole).moveInitialize(from: base + source, count: 1)
                        hole = source
                    }
                }
            }
        }
    }
}
