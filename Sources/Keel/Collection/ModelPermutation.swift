/// Moves the models of an array into a new order in place, following the permutation's
/// cycles, without retaining or releasing any of them.
///
/// A sort that built a new array instead would retain every model into it and release
/// every model of the old one.
///
/// ```swift
/// var models = [a, b, c]
/// ModelPermutation.apply([2, 0, 1], to: &models)  // [c, a, b]
/// ```
enum ModelPermutation {
    /// Reorders `models` so that element `i` becomes the model that was at `order[i]`.
    ///
    /// - Parameters:
    ///   - order: A permutation of `models.indices`; it is used as scratch space.
    ///   - models: The models to reorder.
    static func apply<M: Model>(_ order: consuming ContiguousArray<Int>, to models: inout [M]) {
        precondition(
            order.count == models.count,
            "a permutation of \(order.count) positions for \(models.count) models"
        )
        var order = order
        // The loop is not generic, for the reason `ModelComparator.integerOrder` gives: each
        // element is moved as a `Model` reference.
        models.withUnsafeMutableBufferPointer { buffer in
            UnsafeMutableRawBufferPointer(buffer).withMemoryRebound(to: Model.self) { models in
                order.withUnsafeMutableBufferPointer { order in permute(models, by: order) }
            }
        }
    }

    /// Moves each cycle of `order` along by one, marking each visited position with its
    /// complement (a negative number).
    private static func permute(_ models: UnsafeMutableBufferPointer<Model>, by order: UnsafeMutableBufferPointer<Int>)
    {
        guard let base = models.baseAddress else { return }
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
