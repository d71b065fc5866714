/// A filter in the syntax of Drupal's JSON:API module: conditions on attributes (and on
/// the fields of related resources, `uid.name`), with Drupal's operators, in groups joined
/// by `AND` or `OR`.
///
/// Give it to ``ResourceSelection/filter`` (``SyncOptions/resources`` for one fetch, a
/// ``Paginator``'s ``Paginator/resources`` for every page, or a store query's
/// `resources`). Paths are app attribute names, dot-separated: each name goes through the
/// fetched class's key mapping (``WireFormat/drupalJSONAPI(type:keys:)``'s `keys`), as
/// ``ResourceSelection/include`` paths do.
///
/// A top-level ``Condition/equal(_:)`` travels in Drupal's shorthand
/// (`filter[status]=1`); every other condition in the long form
/// (`filter[c1][condition][path]=title&filter[c1][condition][operator]=CONTAINS&filter[c1][condition][value]=Swift`),
/// and a group as `filter[g1][group][conjunction]=OR` with its members `memberOf` it. The
/// labels (`c1`, `g1`, …) are numbered in order; they only tie members to their group.
/// Values are written as Drupal reads them: `true`/`false` as `1`/`0`, numbers in decimal,
/// strings as they are.
///
/// ```swift
/// var options = SyncOptions()
/// options.resources.filter = [
///     .condition("status", .equal(true)),
///     .condition("title", .contains("Swift")),
///     .any([.condition("sticky", .equal(true)), .condition("promote", .equal(true))]),
/// ]
/// ```
public struct DrupalFilter: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// One part of a filter: a condition on a path, or a group of parts.
    public indirect enum Member: Sendable, Hashable {
        /// A condition on the value at a path (`title`, `uid.name`), in app names.
        case condition(String, Condition)
        /// Parts joined by a conjunction: all must hold (`AND`) or any (`OR`).
        case group(Conjunction, [Member])

        /// A group whose parts must all hold: Drupal's `AND`.
        ///
        /// ```swift
        /// let recent: DrupalFilter.Member = .all([.condition("status", .equal(true)), .condition("created", .greaterThan("2026-01-01"))])
        /// ```
        ///
        /// - Parameter members: The parts.
        /// - Returns: The group.
        public static func all(_ members: [Member]) -> Member { .group(.and, members) }

        /// A group of which any part must hold: Drupal's `OR`.
        ///
        /// ```swift
        /// let featured: DrupalFilter.Member = .any([.condition("sticky", .equal(true)), .condition("promote", .equal(true))])
        /// ```
        ///
        /// - Parameter members: The parts.
        /// - Returns: The group.
        public static func any(_ members: [Member]) -> Member { .group(.or, members) }
    }

    /// What a condition asks of a value: one case per operator of Drupal's JSON:API
    /// module, with as many values as the operator takes.
    public enum Condition: Sendable, Hashable {
        /// `=`; `.equal(.null)` asks for no value, as `IS NULL` does.
        case equal(JSONValue)
        /// `<>`.
        case notEqual(JSONValue)
        /// `>`.
        case greaterThan(JSONValue)
        /// `>=`.
        case greaterThanOrEqual(JSONValue)
        /// `<`.
        case lessThan(JSONValue)
        /// `<=`.
        case lessThanOrEqual(JSONValue)
        /// `STARTS_WITH`.
        case startsWith(String)
        /// `CONTAINS`.
        case contains(String)
        /// `ENDS_WITH`.
        case endsWith(String)
        /// `IN`: one of the values.
        case isIn([JSONValue])
        /// `NOT IN`: none of the values.
        case isNotIn([JSONValue])
        /// `BETWEEN`: from the first value to the second, both included.
        case between(JSONValue, JSONValue)
        /// `IS NULL`: no value.
        case isNull
        /// `IS NOT NULL`: any value.
        case isNotNull

        /// The operator as Drupal spells it in `filter[…][condition][operator]`.
        ///
        /// ```swift
        /// DrupalFilter.Condition.isNotIn([1, 2]).drupalOperator  // "NOT IN"
        /// ```
        public var drupalOperator: String {
            switch self {
            case .equal(let value): value.isNull ? "IS NULL" : "="
            case .notEqual: "<>"
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .startsWith: "STARTS_WITH"
            case .contains: "CONTAINS"
            case .endsWith: "ENDS_WITH"
            case .isIn: "IN"
            case .isNotIn: "NOT IN"
            case .between: "BETWEEN"
            case .isNull: "IS NULL"
            case .isNotNull: "IS NOT NULL"
            }
        }

        /// The values the condition sends: one, a list, or none.
        fileprivate var values: DrupalFilterValues {
            switch self {
            case .equal(let value): value.isNull ? .none : .one(value)
            case .notEqual(let value), .greaterThan(let value), .greaterThanOrEqual(let value), .lessThan(let value),
                .lessThanOrEqual(let value):
                .one(value)
            case .startsWith(let text), .contains(let text), .endsWith(let text): .one(.string(text))
            case .isIn(let values), .isNotIn(let values): .list(values)
            case .between(let low, let high): .list([low, high])
            case .isNull, .isNotNull: .none
            }
        }
    }

    /// How the parts of a group are joined.
    public enum Conjunction: String, Sendable, Hashable {
        /// Every part holds.
        case and = "AND"
        /// At least one part holds.
        case or = "OR"
    }

    /// The filter's top-level parts, all of which must hold.
    public var members: [Member]

    /// Creates a filter of parts that must all hold.
    ///
    /// ```swift
    /// let published = DrupalFilter([.condition("status", .equal(true))])
    /// ```
    ///
    /// - Parameter members: The parts.
    public init(_ members: [Member]) {
        self.members = members
    }

    /// Creates a filter from a list of parts that must all hold.
    ///
    /// ```swift
    /// let published: DrupalFilter = [.condition("status", .equal(true))]
    /// ```
    ///
    /// - Parameter elements: The parts.
    public init(arrayLiteral elements: Member...) {
        self.init(elements)
    }

    /// The `filter[…]` query parameters, in order, with paths in wire names.
    func queryItems(keys: KeyMapping) -> [(key: String, value: String)] {
        var writer = DrupalFilterWriter(keys: keys)
        for member in members { writer.write(member, memberOf: nil) }
        return writer.items
    }
}

/// The values a condition sends.
private enum DrupalFilterValues {
    case none
    case one(JSONValue)
    case list([JSONValue])
}

/// Writes a filter's parts as query parameters, numbering the labels of the long form.
private struct DrupalFilterWriter {
    let keys: KeyMapping
    var items: [(key: String, value: String)] = []
    private var conditions = 0
    private var groups = 0
    /// The paths already written in the shorthand, which a second equality cannot reuse.
    private var shorthandPaths: Set<String> = []

    init(keys: KeyMapping) {
        self.keys = keys
    }

    mutating func write(_ member: DrupalFilter.Member, memberOf group: String?) {
        switch member {
        case .condition(let path, let condition):
            let wirePath = path.split(separator: ".").map { keys.wireName(for: String($0)) }.joined(separator: ".")
            if group == nil, case .equal(let value) = condition, !value.isNull,
                shorthandPaths.insert(wirePath).inserted
            {
                items.append(("filter[\(wirePath)]", Self.text(value)))
                return
            }
            conditions += 1
            let prefix = "filter[c\(conditions)][condition]"
            items.append(("\(prefix)[path]", wirePath))
            items.append(("\(prefix)[operator]", condition.drupalOperator))
            switch condition.values {
            case .none: break
            case .one(let value): items.append(("\(prefix)[value]", Self.text(value)))
            case .list(let values): items += values.map { ("\(prefix)[value][]", Self.text($0)) }
            }
            if let group { items.append(("\(prefix)[memberOf]", group)) }
        case .group(let conjunction, let members):
            groups += 1
            let label = "g\(groups)"
            items.append(("filter[\(label)][group][conjunction]", conjunction.rawValue))
            if let group { items.append(("filter[\(label)][group][memberOf]", group)) }
            for member in members { write(member, memberOf: label) }
        }
    }

    /// A value as Drupal reads it from a query.
    private static func text(_ value: JSONValue) -> String {
        if let bool = value.boolValue { return bool ? "1" : "0" }
        if let text = value.stringValue { return text }
        if let number = value.intValue { return String(number) }
        if let number = value.doubleValue { return String(number) }
        return value.isNull ? "" : value.description
    }
}
