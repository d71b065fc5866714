import Observation

// MARK: - Sections

extension LiveQuery {
    /// The results grouped by ``sectionAttribute``: one section per value, in the order of
    /// the values (the models without the attribute last), the models of each in the
    /// query's sort order; one section holding every result when the query has no section
    /// attribute; none when there are no results.
    ///
    /// A sectioned query orders its results by section first, as `@SectionedFetchRequest`
    /// and `NSFetchedResultsController` require of their sort, so ``models`` lists the
    /// sections' models one section after the other, and `offset` and `limit` take a window
    /// of that list. A model whose attribute changes moves to its new section in O(log *n*),
    /// with `remove`/`add` or `sort` events when its place in the results changes.
    /// Observers of the sections (SwiftUI views, ``snapshots``) also hear of a model that
    /// changes section without changing place, such as the last of one section that becomes
    /// the first of the next.
    ///
    /// ```swift
    /// let byStatus = store.query(Todo.self, sort: .attribute("due"), sectionedBy: "status")
    /// for section in byStatus.sections {
    ///     print(section.key ?? "no status", section.models.map { $0["title"] })
    /// }
    /// ```
    ///
    /// - Complexity: O(1) when unchanged since the last read; O(*k* + log *n*) for *k*
    ///   results otherwise.
    public var sections: [QuerySection<M>] {
        registrar.access(self, keyPath: modelsKeyPath)
        if let cachedSections { return cachedSections }
        var sections: [QuerySection<M>] = []
        var key: JSONValue?
        var members: [M] = []
        for entry in tree.elements(in: window) {
            if !members.isEmpty, entry.sectionKey != key {
                sections.append(QuerySection(key: key, models: members))
                members.removeAll()
            }
            key = entry.sectionKey
            members.append(self.model(of: entry))
        }
        if !members.isEmpty { sections.append(QuerySection(key: key, models: members)) }
        cachedSections = sections
        return sections
    }

    /// The tree entry of `model`, with its section when the query has sections.
    ///
    /// The sort value is read through ``entryOrder``, made once, not through the optional
    /// generic ``sort``, whose metadata each read looked up.
    func makeEntry(_ model: M, sequence: Int) -> Entry {
        // Read unobserved, as the filter is (``passesFilter(_:)``).
        model.readingUnobserved {
            var sectionKey: JSONValue?
            if let sectionAttribute { sectionKey = model.get(sectionAttribute) }
            return Entry(
                model: model,
                sequence: sequence,
                sectionKey: sectionKey,
                sortKey: entryOrder.sortValue?(model)
            )
        }
    }
}
