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
/// query of *n* results: the query moves that model, it does not run again. The records one
/// fetch brings enter in one batch: one snapshot, one Observation change, and `add` events
/// (after `remove` events, in a window) at the indexes of the final results, so that applying
/// them one after another gives the results.
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
    /// A model in the query and what places it (see ``QueryEntry``).
    typealias Entry = QueryEntry

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

    // Read without run-time exclusivity checks: a read is a copy, never open across the
    // call into the filter (a check cost every model the query met).

    /// Which models the query holds; `nil` holds every model of the class. Setting it
    /// rebuilds the results and emits `reset`.
    ///
    /// ```swift
    /// open.filter = .equals(Todo.done, true)
    /// ```
    @exclusivity(unchecked) public var filter: QueryFilter<M>? {
        didSet { rebuild() }
    }

    /// The order of the results; `nil` keeps the order in which the store came to hold the
    /// models. Setting it rebuilds the results and emits `reset`.
    ///
    /// ```swift
    /// open.sort = .attribute("title")
    /// ```
    public var sort: ModelComparator<M>? {
        didSet {
            entryOrder = Self.entryOrder(sort: sort, isSectioned: sectionAttribute != nil)
            rebuild()
        }
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

    /// The related resources, sparse fieldsets and filter sent with the query's requests.
    ///
    /// ```swift
    /// let published = store.query(Article.self, resources: ResourceSelection(filter: [.condition("status", .equal(true))]))
    /// published.resources.filter  // [.condition("status", .equal(true))]
    /// ```
    public let resources: ResourceSelection

    /// The attribute that groups the results into ``sections``; `nil` for one section.
    ///
    /// ```swift
    /// store.query(Todo.self, sectionedBy: "status").sectionAttribute  // "status"
    /// ```
    public let sectionAttribute: String?

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
    var tree = RankedTree<Entry>()
    /// The node of each matching model, by client id number.
    ///
    /// Without run-time exclusivity checks: each access is one lookup or store, never open
    /// across a call into the app's filter or comparator (a check cost every loaded model).
    @exclusivity(unchecked) var nodes: [Int: Node] = [:]
    /// The results as an array, until they change.
    var cachedModels: [M]?
    /// The results grouped into sections, until they change.
    var cachedSections: [QuerySection<M>]?
    let registrar = ObservationRegistrar()
    /// `\.models`, made once: a key path into a generic class is built anew at each use,
    /// which cost a third of a model's move into the results.
    let modelsKeyPath: KeyPath<LiveQuery<M>, [M]> = \.models
    /// Wakes the iterators of ``snapshots``.
    let signal = SnapshotSignal()
    /// How entries are ordered, made from ``sort`` and ``sectionAttribute``.
    private(set) var entryOrder: QueryEntryOrder

    init(store: Store, stored: StoredClass, parameters: QueryParameters<M>) {
        cid = "query" + String(EventEmitter.makeUniqueID())
        self.store = store
        self.stored = stored
        policy = parameters.policy ?? stored.policy ?? store.defaultPolicy
        staleTime = parameters.staleTime ?? stored.staleTime
        gcTime = parameters.gcTime ?? stored.gcTime ?? store.defaultGCTime
        remoteQuery = parameters.remoteQuery
        resources = parameters.resources
        tags = parameters.tags
        sectionAttribute = parameters.sectionAttribute
        fetchState = store.fetchState(
            path: stored.path,
            query: parameters.remoteQuery,
            resources: parameters.resources,
            tags: parameters.tags
        )
        let (filter, sort, offset, limit) = (parameters.filter, parameters.sort, parameters.offset, parameters.limit)
        self.filter = filter
        self.sort = sort
        self.offset = Swift.max(0, offset)
        self.limit = limit.map { Swift.max(0, $0) }
        entryOrder = Self.entryOrder(sort: sort, isSectioned: parameters.sectionAttribute != nil)
        super.init()
        fill()
        stored.addObserver(self)
        fetchState.addObserver(gcTime: gcTime)
    }

    deinit {
        fetchState.removeObserver()
    }

    // MARK: - Building

    /// Puts every held, matching model in the tree: the query run once, in full.
    private func fill() {
        place(sortedEntries(of: Array(stored.held.values)))
    }

    /// Runs the query again, after its filter, sort or window changed, and emits `reset`.
    private func rebuild() {
        let previous = cachedModels ?? tree.elements(in: window).map(self.model(of:))
        registrar.willSet(self, keyPath: modelsKeyPath)
        tree.removeAll()
        nodes.removeAll()
        fill()
        cachedModels = nil
        cachedSections = nil
        registrar.didSet(self, keyPath: modelsKeyPath)
        signal.signal()
        trigger(Event(name: "reset", collection: self, previousModels: previous))
    }

    /// Whether `entry` sorts before `other`: by section, then by the sort, then by the order
    /// the store came to hold them, so that the order is total and equals a stable sort of
    /// the held models.
    func sortsBefore(_ entry: Entry, _ other: Entry) -> Bool {
        entryOrder.sortsBefore(entry, other)
    }

    /// The order of a query's entries with `sort`, by section first when `isSectioned`.
    private static func entryOrder(sort: ModelComparator<M>?, isSectioned: Bool) -> QueryEntryOrder {
        let sortsModels: ((Model, Model) -> Bool)? = sort.flatMap { sort in
            sort.comparesValues
                ? nil : { sort.sortsBefore(unsafeDowncast($0, to: M.self), unsafeDowncast($1, to: M.self)) }
        }
        let sortValue: ((Model) -> JSONValue?)? = sort.flatMap { sort in
            sort.comparesValues ? { sort.value(of: unsafeDowncast($0, to: M.self)) } : nil
        }
        return QueryEntryOrder(
            isSectioned: isSectioned,
            comparesValues: sort?.comparesValues ?? false,
            sortsModels: sortsModels,
            sortValue: sortValue
        )
    }

    /// The model of one of the query's entries, as the query's class.
    func model(of entry: Entry) -> M {
        unsafeDowncast(entry.model, to: M.self)
    }

    func insertionRank(of entry: Entry) -> Int {
        tree.insertionRank { sortsBefore(entry, $0) }
    }

    // MARK: - Following the store

    /// Moves one model: out of the tree (when `node` is given), then in (when `entry` is
    /// given), and emits what changed in the results.
    private func move(_ model: M, from node: Node?, to entry: Entry?) {
        if node == nil, let entry, !isWindowed {
            add(model, entry)
            return
        }
        let isRegrouped = node != nil && entry != nil && node.map { tree[$0].sectionKey } != entry?.sectionKey
        let before = window
        var candidates: [(entry: Entry, rank: Int)] = []
        for rank in [before.lowerBound - 1, before.lowerBound, before.upperBound - 1, before.upperBound]
        where isWindowed && rank >= 0 && rank < tree.count {
            let candidate = tree.element(at: rank)
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
                removed.append((self.model(of: candidate), rank - before.lowerBound))
            } else if after.contains(rankNow) && !before.contains(rank) {
                added.append((self.model(of: candidate), rankNow - after.lowerBound))
            }
        }
        let isSorted = wasIn && isIn && oldRank != newRank
        // A model that changes section without moving changes the sections, not the models.
        if removed.isEmpty && added.isEmpty && !isSorted && !(isRegrouped && isIn) { return }
        cachedModels = nil
        cachedSections = nil
        // Observers hear only of changes to the results: a model that moves outside the
        // window, or changes without moving, costs them nothing.
        registrar.willSet(self, keyPath: modelsKeyPath)
        registrar.didSet(self, keyPath: modelsKeyPath)
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

    /// Puts a model that was not in the results into them, when the results are the whole
    /// tree (no offset, no limit): no other model enters or leaves them.
    private func add(_ model: M, _ entry: Entry) {
        let rank = insertionRank(of: entry)
        nodes[model.cidNumber] = tree.insert(entry, at: rank)
        cachedModels = nil
        cachedSections = nil
        registrar.willSet(self, keyPath: modelsKeyPath)
        registrar.didSet(self, keyPath: modelsKeyPath)
        signal.signal()
        trigger(Event(name: "add", model: model, collection: self, index: rank))
    }

    /// Whether the model of `node` is still in order with its neighbours.
    private func isInPlace(_ node: Node) -> Bool {
        let rank = tree.rank(of: node)
        if rank > 0, !sortsBefore(tree.element(at: rank - 1), tree[node]) { return false }
        if rank + 1 < tree.count, !sortsBefore(tree[node], tree.element(at: rank + 1)) { return false }
        return true
    }
}

// MARK: - StoreObserver

extension LiveQuery: StoreObserver {
    func storeDidAdd(_ model: Model, sequence: Int) {
        guard let model = model as? M, nodes[model.cidNumber] == nil, passesFilter(model) else { return }
        move(model, from: nil, to: makeEntry(model, sequence: sequence))
    }

    func storeDidChange(_ model: Model) {
        guard let model = model as? M else { return }
        let node = nodes[model.cidNumber]
        let matches = passesFilter(model)
        switch (node, matches) {
        case (nil, false):
            return
        case (nil, true):
            guard let held = stored.held[model.cidNumber] else { return }
            move(model, from: nil, to: makeEntry(model, sequence: held.sequence))
        case (let node?, false):
            move(model, from: node, to: nil)
        case (let node?, true):
            if let sectionAttribute, model.readingUnobserved({ model.get(sectionAttribute) }) != tree[node].sectionKey {
                move(model, from: node, to: makeEntry(model, sequence: tree[node].sequence))
                return
            }
            guard let sort else { return }
            if sort.comparesValues {
                let key = model.readingUnobserved { sort.value(of: model) }
                let entry = tree[node]
                if key == entry.sortKey { return }
                entry.sortKey = key
            }
            if isInPlace(node) { return }
            move(model, from: node, to: tree[node])
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
