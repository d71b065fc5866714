public import Foundation
import Observation

// MARK: - Reading

extension LiveQuery {
    /// The results, in order.
    ///
    /// ```swift
    /// let titles = open.models.map { $0["title"] }
    /// ```
    ///
    /// - Complexity: O(1) when unchanged since the last read; O(*k* + log *n*) for *k*
    ///   results otherwise.
    public var models: [M] {
        registrar.access(self, keyPath: modelsKeyPath)
        if let cachedModels { return cachedModels }
        let models = tree.elements(in: window).map(self.model(of:))
        cachedModels = models
        return models
    }

    /// The results as ``Model`` values.
    ///
    /// ```swift
    /// let any: [Model] = open.allModels
    /// ```
    public var allModels: [Model] { models }

    /// How many models pass the filter, before `offset` and `limit` apply.
    ///
    /// ```swift
    /// let pages = (open.totalCount + 49) / 50
    /// ```
    public var totalCount: Int {
        registrar.access(self, keyPath: modelsKeyPath)
        return tree.count
    }

    /// The class's collection path, such as `/todos`.
    ///
    /// ```swift
    /// open.url  // "/todos"
    /// ```
    public var url: String? { stored.path }

    /// `nil`: the models resolve their URLs against the store's backend.
    ///
    /// ```swift
    /// open.baseURL  // nil
    /// ```
    public var baseURL: URL? { nil }

    /// The store's backend.
    ///
    /// ```swift
    /// open.sync
    /// ```
    public var sync: (any Sync)? { store.sync }

    /// `nil`: the models use their class's wire format.
    ///
    /// ```swift
    /// open.wireFormat  // nil
    /// ```
    public var wireFormat: WireFormat? { nil }

    /// The ranks of the matching models that are results.
    var window: Range<Int> {
        let lower = Swift.min(offset, tree.count)
        let upper = limit.map { Swift.min(tree.count, lower + $0) } ?? tree.count
        return lower..<upper
    }

    /// Whether an offset or a limit cuts the results from the tree. Without either, the
    /// window is the whole tree, and no model enters or leaves it because another moved.
    var isWindowed: Bool { offset > 0 || limit != nil }
}

// MARK: - RandomAccessCollection

extension LiveQuery: RandomAccessCollection {
    /// The position of the first result.
    public var startIndex: Int { 0 }

    /// The position after the last result.
    public var endIndex: Int {
        registrar.access(self, keyPath: modelsKeyPath)
        return window.count
    }

    /// The result at `position`.
    ///
    /// ```swift
    /// let first = open[0]
    /// ```
    ///
    /// - Complexity: O(1) when the results are unchanged since ``models`` was read;
    ///   O(log *n*) otherwise.
    public subscript(position: Int) -> M {
        registrar.access(self, keyPath: modelsKeyPath)
        if let cachedModels { return cachedModels[position] }
        precondition(position >= 0 && position < window.count, "LiveQuery: index out of range")
        return self.model(of: tree.element(at: window.lowerBound + position))
    }
}
