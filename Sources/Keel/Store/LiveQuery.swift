public import Foundation
public import Observation

/// The models of one class that a ``Store`` holds and that pass a filter, in a sort order,
/// optionally a window of them (`offset`, `limit`), kept up to date as models change:
/// SwiftData's `@Query` and WarpDrive's live arrays.
///
/// A query is a read-only collection: it is a `RandomAccessCollection` of models, emits
/// Backbone's `add`, `remove`, `sort` and `reset` events, is `Observable` (a SwiftUI view
/// that reads it updates when its results change, not when any other query's do), and
/// gives its results as an asynchronous sequence of snapshots (``snapshots``).
///
/// It follows every model of its class the store holds, wherever in the process the model
/// changes: a `set`, a fetch that merges records, a save's answer, a replayed offline
/// change that gets its server id, a destroy. A change to one model costs O(log *n*) in a
/// query of *n* results: the query moves that model, it does not run again.
///
/// ```swift
/// let open = store.query(Todo.self, filter: .equals(Todo.done, false), sort: .attribute("due"), limit: 50)
/// open.on("add") { event in print("now open:", event.model?["title"] ?? nil) }
/// for todo in open { print(todo["title"] ?? nil) }
/// ```
///
/// A query stops following the store when it is released. Like models, it is not
/// `Sendable` and lives in the isolation domain of its store.
public final class LiveQuery<M: Model>: EventEmitter, ModelCollection, Observable {
    /// A model in the query, with the order the store came to hold it in (the tie-break of
    /// the sort, and the order of a query without a sort).
    final class Entry {
        let model: M
        let sequence: Int
        init(model: M, sequence: Int) {
            self.model = model
            self.sequence = sequence
        }
    }

    typealias Node = RankedTree<Entry>.Node

    /// The query's client id.
    ///
    /// ```swift
    /// open.cid  // "query42"
    /// ```
    public let cid: String

    /// The store the query reads.
    ///
    /// ```swift
    /// open.store.sync
    /// ```
    public let store: Store

    /// Which models the query holds; `nil` holds every model of the class. Setting it
    /// rebuilds the results and emits `reset`.
    ///
    /// ```swift
    /// open.filter = .equals(Todo.done, true)
    /// ```
    public var filter: QueryFilter<M>? {
        didSet { rebuild() }
    }

    /// The order of the results; `nil` keeps the order in which the store came to hold the
    /// models. Setting it rebuilds the results and emits `reset`.
    ///
    /// ```swift
    /// open.sort = .attribute("title")
    /// ```
    public var sort: ModelComparator<M>? {
        didSet { rebuild() }
    }

    /// How many of the matching models the results skip. Setting it rebuilds the results
    /// and emits `reset`.
    ///
    /// ```swift
    /// open.offset += 50   // the next page
    /// ```
    public var offset: Int {
        didSet { rebuild() }
    }

    /// The most results the query holds; `nil` for no limit. Setting it rebuilds the
    /// results and emits `reset`.
    ///
    /// ```swift
    /// open.limit = 100
    /// ```
    public var limit: Int? {
        didSet { rebuild() }
    }

    /// When ``load(policy:)`` sends a request (see ``CachePolicy``).
    ///
    /// ```swift
    /// open.policy  // .cacheFirst
    /// ```
    public let policy: CachePolicy

    /// How long a loaded answer stays fresh; `nil` keeps it fresh until it is invalidated.
    ///
    /// ```swift
    /// let recent = store.query(Todo.self, staleTime: .seconds(30))
    /// ```
    public let staleTime: Duration?

    /// How long the query's records stay in the store once no live query uses them (see
    /// ``Store/collectGarbage()``).
    ///
    /// ```swift
    /// let recent = store.query(Todo.self, gcTime: .seconds(30))
    /// ```
    public let gcTime: Duration

    /// The query parameters sent with the query's requests, such as a server-side filter.
    ///
    /// ```swift
    /// let mine = store.query(Todo.self, filter: .attribute("owner", equals: "ann"), remoteQuery: ["owner": "ann"])
    /// ```
    public let remoteQuery: KeyValuePairs<String, String>

    /// The tags ``Store/invalidate(tag:)`` finds the query by.
    ///
    /// ```swift
    /// store.query(Todo.self, tags: ["inbox"]).tags  // ["inbox"]
    /// ```
    public let tags: Set<String>

    let stored: StoredClass
    /// The state of the requests for the query's records, shared with the queries that
    /// load the same ones.
    let fetchState: FetchState
    /// Every matching model, in order; the results are a window of it.
    private var tree = RankedTree<Entry>()
    /// The node of each matching model, by client id number.
    private var nodes: [Int: Node] = [:]
    /// The results as an array, until they change.
    private var cachedModels: [M]?
    private let registrar = ObservationRegistrar()
    /// Wakes the iterators of ``snapshots``.
    let signal = SnapshotSignal()

    init(store: Store, stored: StoredClass, parameters: QueryParameters<M>) {
        cid = "query" + String(EventEmitter.makeUniqueID())
        self.store = store
        self.stored = stored
        policy = parameters.policy ?? stored.policy ?? store.defaultPolicy
        staleTime = parameters.staleTime ?? stored.staleTime
        gcTime = parameters.gcTime ?? stored.gcTime ?? store.defaultGCTime
        remoteQuery = parameters.remoteQuery
        tags = parameters.tags
        fetchState = store.fetchState(path: stored.path, query: parameters.remoteQuery, tags: parameters.tags)
        let (filter, sort, offset, limit) = (parameters.filter, parameters.sort, parameters.offset, parameters.limit)
        self.filter = filter
        self.sort = sort
        self.offset = Swift.max(0, offset)
        self.limit = limit.map { Swift.max(0, $0) }
        super.init()
        fill()
        stored.addObserver(self)
        fetchState.addObserver(gcTime: gcTime)
    }

    deinit {
        fetchState.removeObserver()
    }

    // MARK: - Reading

    /// The results, in order.
    ///
    /// ```swift
    /// let titles = open.models.map { $0["title"] }
    /// ```
    ///
    /// - Complexity: O(1) when unchanged since the last read; O(*k* + log *n*) for *k*
    ///   results otherwise.
    public var models: [M] {
        registrar.access(self, keyPath: \.models)
        if let cachedModels { return cachedModels }
        let models = tree.elements(in: window).map(\.model)
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
        registrar.access(self, keyPath: \.models)
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
    private var window: Range<Int> {
        let lower = Swift.min(offset, tree.count)
        let upper = limit.map { Swift.min(tree.count, lower + $0) } ?? tree.count
        return lower..<upper
    }

    // MARK: - Building

    /// Puts every held, matching model in the tree: the query run once, in full.
    private func fill() {
        for held in stored.orderedHeld() {
            guard let model = held.model as? M, filter?.matches(model) ?? true else { continue }
            let entry = Entry(model: model, sequence: held.sequence)
            nodes[model.cidNumber] = tree.insert(entry, at: insertionRank(of: entry))
        }
    }

    /// Runs the query again, after its filter, sort or window changed, and emits `reset`.
    private func rebuild() {
        let previous = cachedModels ?? tree.elements(in: window).map(\.model)
        registrar.willSet(self, keyPath: \.models)
        tree.removeAll()
        nodes.removeAll()
        fill()
        cachedModels = nil
        registrar.didSet(self, keyPath: \.models)
        signal.signal()
        trigger(Event(name: "reset", collection: self, previousModels: previous))
    }

    /// Whether `entry` sorts before `other`: by the sort, then by the order the store came
    /// to hold them, so that the order is total and equals a stable sort of the held models.
    private func sortsBefore(_ entry: Entry, _ other: Entry) -> Bool {
        if let sort {
            if sort.sortsBefore(entry.model, other.model) { return true }
            if sort.sortsBefore(other.model, entry.model) { return false }
        }
        return entry.sequence < other.sequence
    }

    private func insertionRank(of entry: Entry) -> Int {
        tree.insertionRank { sortsBefore(entry, $0) }
    }

    // MARK: - Following the store

    /// Moves one model: out of the tree (when `node` is given), then in (when `entry` is
    /// given), and emits what changed in the results.
    private func move(_ model: M, from node: Node?, to entry: Entry?) {
        let before = window
        var candidates: [(entry: Entry, rank: Int)] = []
        for rank in [before.lowerBound - 1, before.lowerBound, before.upperBound - 1, before.upperBound]
        where rank >= 0 && rank < tree.count {
            let candidate = tree.node(at: rank).element
            if candidate.model !== model && !candidates.contains(where: { $0.entry === candidate }) {
                candidates.append((candidate, rank))
            }
        }
        let oldRank = node.map { tree.rank(of: $0) }
        if let node {
            tree.remove(node)
            nodes[model.cidNumber] = nil
        }
        var newRank: Int?
        if let entry {
            let rank = insertionRank(of: entry)
            nodes[model.cidNumber] = tree.insert(entry, at: rank)
            newRank = rank
        }
        let after = window
        var removed: [(M, Int)] = []
        var added: [(M, Int)] = []
        let wasIn = oldRank.map(before.contains) ?? false
        let isIn = newRank.map(after.contains) ?? false
        if wasIn && !isIn, let oldRank { removed.append((model, oldRank - before.lowerBound)) }
        if isIn && !wasIn, let newRank { added.append((model, newRank - after.lowerBound)) }
        for (candidate, rank) in candidates {
            guard let candidateNode = nodes[candidate.model.cidNumber] else { continue }
            let rankNow = tree.rank(of: candidateNode)
            if before.contains(rank) && !after.contains(rankNow) {
                removed.append((candidate.model, rank - before.lowerBound))
            } else if after.contains(rankNow) && !before.contains(rank) {
                added.append((candidate.model, rankNow - after.lowerBound))
            }
        }
        let isSorted = wasIn && isIn && oldRank != newRank
        if removed.isEmpty && added.isEmpty && !isSorted { return }
        cachedModels = nil
        // Observers hear only of changes to the results: a model that moves outside the
        // window, or changes without moving, costs them nothing.
        registrar.willSet(self, keyPath: \.models)
        registrar.didSet(self, keyPath: \.models)
        signal.signal()
        // Removals from the back and additions from the front, so that each event's index
        // holds when the events are applied one after the other.
        for (model, index) in removed.sorted(by: { $0.1 > $1.1 }) {
            trigger(Event(name: "remove", model: model, collection: self, index: index))
        }
        for (model, index) in added.sorted(by: { $0.1 < $1.1 }) {
            trigger(Event(name: "add", model: model, collection: self, index: index))
        }
        if isSorted { trigger(Event(name: "sort", collection: self)) }
    }

    /// Whether the model of `node` is still in order with its neighbours.
    private func isInPlace(_ node: Node) -> Bool {
        let rank = tree.rank(of: node)
        if rank > 0, !sortsBefore(tree.node(at: rank - 1).element, node.element) { return false }
        if rank + 1 < tree.count, !sortsBefore(node.element, tree.node(at: rank + 1).element) { return false }
        return true
    }
}

// MARK: - StoreObserver

extension LiveQuery: StoreObserver {
    func storeDidAdd(_ model: Model, sequence: Int) {
        guard let model = model as? M, nodes[model.cidNumber] == nil, filter?.matches(model) ?? true else { return }
        move(model, from: nil, to: Entry(model: model, sequence: sequence))
    }

    func storeDidChange(_ model: Model) {
        guard let model = model as? M else { return }
        let node = nodes[model.cidNumber]
        let matches = filter?.matches(model) ?? true
        switch (node, matches) {
        case (nil, false):
            return
        case (nil, true):
            guard let held = stored.held[model.cidNumber] else { return }
            move(model, from: nil, to: Entry(model: model, sequence: held.sequence))
        case (let node?, false):
            move(model, from: node, to: nil)
        case (let node?, true):
            if sort == nil || isInPlace(node) { return }
            move(model, from: node, to: node.element)
        }
    }

    func storeDidRemove(_ model: Model) {
        guard let model = model as? M, let node = nodes[model.cidNumber] else { return }
        move(model, from: node, to: nil)
    }

    func shows(_ model: Model) -> Bool {
        nodes[model.cidNumber] != nil
    }
}

// MARK: - RandomAccessCollection

extension LiveQuery: RandomAccessCollection {
    /// The position of the first result.
    public var startIndex: Int { 0 }

    /// The position after the last result.
    public var endIndex: Int {
        registrar.access(self, keyPath: \.models)
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
        registrar.access(self, keyPath: \.models)
        if let cachedModels { return cachedModels[position] }
        precondition(position >= 0 && position < window.count, "LiveQuery: index out of range")
        return tree.node(at: window.lowerBound + position).element.model
    }
}
