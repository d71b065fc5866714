/// A model in a live query, with the order the store came to hold it in (the tie-break of
/// the sort, and the order of a query without a sort), in a sectioned query the section it
/// was put in (its attribute may have changed since; the query then moves it), and the
/// value it is sorted by when the sort compares values (`.attribute`, `.value`), so that
/// placing a model compares values without reading each neighbour's attributes.
///
/// Not generic over the query's model class: an array of entries, their sort and the
/// ranked tree that holds them compile to concrete code in the module, where a
/// `LiveQuery<M>`'s own types would go through the run time's generic metadata on every
/// call (a third of a load's placing, measured).
final class QueryEntry {
    /// The model; always of the query's class.
    let model: Model
    let sequence: Int
    let sectionKey: JSONValue?
    var sortKey: JSONValue?

    init(model: Model, sequence: Int, sectionKey: JSONValue?, sortKey: JSONValue?) {
        self.model = model
        self.sequence = sequence
        self.sectionKey = sectionKey
        self.sortKey = sortKey
    }
}

/// How a live query orders its entries: by section, then by the sort, then by the order
/// the store came to hold them.
///
/// Made once per query (and again when its sort changes), so that sorting a batch calls no
/// generic code per comparison.
struct QueryEntryOrder {
    /// Whether the query has sections (entries compare their section keys first).
    let isSectioned: Bool
    /// Whether the sort compares the entries' sort keys.
    let comparesValues: Bool
    /// The sort's comparison of two models, for a sort that does not compare values.
    let sortsModels: ((Model, Model) -> Bool)?
    /// The value the sort orders a model by, for a sort that compares values.
    let sortValue: ((Model) -> JSONValue?)?

    /// Whether `entry` sorts before `other`; the order is total.
    func sortsBefore(_ entry: QueryEntry, _ other: QueryEntry) -> Bool {
        if isSectioned, entry.sectionKey != other.sectionKey {
            return QuerySection<Model>.keySortsBefore(entry.sectionKey, other.sectionKey)
        }
        if comparesValues {
            // Integers, the commonest keys, compared in place (as `JSONValue.sortsBefore` does).
            if case .int(let key)? = entry.sortKey, case .int(let otherKey)? = other.sortKey {
                if key != otherKey { return key < otherKey }
            } else {
                if ModelComparator<Model>.valueSortsBefore(entry.sortKey, other.sortKey) { return true }
                if ModelComparator<Model>.valueSortsBefore(other.sortKey, entry.sortKey) { return false }
            }
        } else if let sortsModels {
            if sortsModels(entry.model, other.model) { return true }
            if sortsModels(other.model, entry.model) { return false }
        }
        return entry.sequence < other.sequence
    }
}
