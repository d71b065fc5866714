/// One group of a sectioned ``LiveQuery``'s results: the models that share a value of the
/// query's ``LiveQuery/sectionAttribute``, in the query's sort order (SwiftData's
/// `SectionedFetchResults.Section`, a section of `NSFetchedResultsController`).
///
/// ```swift
/// let byStatus = store.query(Todo.self, sort: .attribute("due"), sectionedBy: "status")
/// for section in byStatus.sections {
///     print(section.key ?? "no status", section.models.count)
/// }
/// ```
public struct QuerySection<M: Model>: Identifiable {
    /// The value of the section attribute that the section's models share; `nil` for the
    /// models without it, whose section comes last.
    ///
    /// ```swift
    /// byStatus.sections.first?.key  // "doing"
    /// ```
    public let key: JSONValue?

    /// The section's models, in the query's sort order.
    ///
    /// ```swift
    /// let titles = section.models.map { $0["title"] }
    /// ```
    public let models: [M]

    /// The section's identity in a list: its key.
    ///
    /// ```swift
    /// ForEach(byStatus.sections) { section in Text(section.key?.stringValue ?? "—") }
    /// ```
    public var id: JSONValue? { key }

    /// Whether sections of `lhs` come before sections of `rhs`: in the order of
    /// ``JSONValue/sortsBefore(_:_:)``, the missing key last, as ``ModelComparator/attribute(_:)``
    /// orders values.
    ///
    /// Unequal keys that sort alike (two different objects) order by their descriptions, so
    /// that each section stays in one piece.
    static func keySortsBefore(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        switch (lhs, rhs) {
        case (let lhs?, let rhs?):
            if JSONValue.sortsBefore(lhs, rhs) { return true }
            if JSONValue.sortsBefore(rhs, lhs) { return false }
            return lhs.description < rhs.description
        case (.some, .none): return true
        case (.none, _): return false
        }
    }
}
