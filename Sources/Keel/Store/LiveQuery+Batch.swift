import Observation

// MARK: - Placing many models at once

extension LiveQuery {
    /// Whether `model` passes the ``filter``, read without reporting to Observation: the
    /// query's own reads are no dependency of a view, and would give every model it loads
    /// a registrar (two allocations each).
    func passesFilter(_ model: M) -> Bool {
        guard let filter else { return true }
        return model.readingUnobserved { filter.matches(model) }
    }

    /// The entries of the models among `held` (each held once) that pass the filter and
    /// are not in the query yet, sorted by ``sortsBefore(_:_:)``.
    func sortedEntries(of held: [StoredClass.Held]) -> [Entry] {
        var entries: [Entry] = []
        // A query that shows nothing yet (its first load) has no model of the batch.
        let isEmpty = nodes.isEmpty
        for held in held {
            guard let model = held.model as? M, isEmpty || nodes[model.cidNumber] == nil, passesFilter(model)
            else { continue }
            entries.append(makeEntry(model, sequence: held.sequence))
        }
        // The order is total (the sequence breaks ties), so any sort is stable. The entries are
        // sorted unretained, kept alive by `entries`: sorting the references themselves
        // retained and released each about a dozen times, atomically.
        let order = entryOrder
        return withExtendedLifetime(entries) {
            var unretained = entries.map(Unmanaged.passUnretained)
            unretained.sort { first, second in
                first._withUnsafeGuaranteedRef { entry in
                    second._withUnsafeGuaranteedRef { other in order.sortsBefore(entry, other) }
                }
            }
            return unretained.map { $0.takeUnretainedValue() }
        }
    }

    /// Puts sorted entries that are not in the tree into it, and returns the rank of each
    /// in the tree afterwards.
    ///
    /// Into an empty tree, or one they would at least double, they go by rebuilding it from
    /// the merged order in one pass; a few go one by one, in order, so that each one's
    /// rank is final when it is placed.
    ///
    /// - Complexity: O(*n* + *k*) for a rebuild, O(*k* log *n*) one by one, for *k* entries
    ///   and *n* models in the tree.
    @discardableResult
    func place(_ entries: [Entry]) -> [Int] {
        if entries.count < tree.count {
            return entries.map { entry in
                let rank = insertionRank(of: entry)
                nodes[entry.model.cidNumber] = tree.insert(entry, at: rank)
                return rank
            }
        }
        let present = tree.elements
        var merged: [Entry] = []
        merged.reserveCapacity(present.count + entries.count)
        var ranks: [Int] = []
        ranks.reserveCapacity(entries.count)
        var next = present.startIndex
        let order = entryOrder
        for entry in entries {
            while next < present.endIndex, order.sortsBefore(present[next], entry) {
                merged.append(present[next])
                next += 1
            }
            ranks.append(merged.count)
            merged.append(entry)
        }
        merged.append(contentsOf: present[next...])
        for (entry, node) in zip(merged, tree.rebuild(merged)) { nodes[entry.model.cidNumber] = node }
        return ranks
    }

    /// Places the models the store came to hold in one batch, and reports the change of
    /// the results once: one Observation change, one snapshot, and the `add` (and, in a
    /// window, `remove`) events a model-by-model placement would have described, with the
    /// indexes of the final results, removals from the back, then additions from the front.
    func storeDidAdd(_ held: [StoredClass.Held]) {
        let entries = sortedEntries(of: held)
        guard !entries.isEmpty else { return }
        var removed: [(model: M, index: Int)] = []
        var added: [(model: M, index: Int)] = []
        if isWindowed {
            let before = tree.elements(in: window)
            place(entries)
            let after = tree.elements(in: window)
            let kept = Set(before.map(ObjectIdentifier.init)).intersection(after.map(ObjectIdentifier.init))
            for (index, entry) in before.enumerated().reversed() where !kept.contains(ObjectIdentifier(entry)) {
                removed.append((self.model(of: entry), index))
            }
            for (index, entry) in after.enumerated() where !kept.contains(ObjectIdentifier(entry)) {
                added.append((self.model(of: entry), index))
            }
            if removed.isEmpty && added.isEmpty { return }
        } else {
            let ranks = place(entries)
            if hasHandlers { added = zip(entries, ranks).map { (self.model(of: $0), $1) } }
        }
        cachedModels = nil
        cachedSections = nil
        registrar.willSet(self, keyPath: modelsKeyPath)
        registrar.didSet(self, keyPath: modelsKeyPath)
        signal.signal()
        for (model, index) in removed {
            trigger(Event(name: "remove", model: model, collection: self, index: index))
        }
        for (model, index) in added {
            trigger(Event(name: "add", model: model, collection: self, index: index))
        }
    }
}
