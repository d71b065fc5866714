import Foundation
import Keel

/// What the query parameters of an offline JSON:API list read ask of the stored resources,
/// when the local copy can answer it as the server would.
///
/// `filter[name]=value` (or `name=value`) keeps the resources whose attribute, or whose
/// to-one relationship's id, equals the value as text (`filter[id]` the resource's id);
/// `sort=-title,id` orders by attributes and the id, stably, missing values last;
/// `page[number]` with `page[size]`, and `page[offset]` with `page[limit]`, cut a page of the
/// ordered resources (pages from 1; a `Paginator`'s `.jsonAPI` or `.jsonAPIOffset` style,
/// `SyncRequest.pageStyle`, by its own names too); `include` and `fields[…]` only shape the
/// document. Anything else a server may mean (a search, a cursor, an operator such as
/// `filter[title][lt]`, a path such as `filter[author.name]`, a to-many relationship, a name
/// no stored resource has) is thrown as `SyncError.unevaluableQuery(parameter:reason:)`
/// rather than answered with equality.
struct JSONAPILocalQuery {
    private var filters: [(member: String, value: String)] = []
    private var sort = LocalSort()
    private var paging: LocalPage

    /// Reads the parameters of a read whose stored resources are `resources`, the pages
    /// named as `style` says (the stock `page[…]` names when `nil`).
    ///
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a parameter the local
    ///   copy cannot evaluate.
    init(_ query: [URLQueryItem], resources: [JSONObject], style: PageStyle? = nil) throws(SyncError) {
        paging = LocalPage(PageParameters(jsonAPI: style))
        for item in query {
            let name = item.name
            if name == "include" || name.hasPrefix("fields[") { continue }
            if try paging.read(name, item.value ?? "") { continue }
            if name.hasPrefix("page[") {
                throw .unevaluableQuery(
                    parameter: name,
                    reason: "a cursor or a page parameter of the server's own names a place in its list, "
                        + "which the local copy cannot find"
                )
            }
            if name == "sort" {
                sort = try Self.sort(item.value ?? "", resources: resources)
                continue
            }
            let member = try Self.member(of: name)
            if member != "id", !resources.isEmpty {
                try Self.requireFilterable(member, parameter: name, in: resources)
            }
            filters.append((member, item.value ?? ""))
        }
    }

    /// The resources that match every filter, in the order of the sort, and their number
    /// before the page was cut.
    func answer(_ resources: [JSONObject]) -> (page: [JSONObject], total: Int) {
        let matching = resources.filter { resource in
            filters.allSatisfy { filter in
                JSONAPIResource.value(of: filter.member, in: resource).map { CachePath.key($0) == filter.value }
                    ?? false
            }
        }
        let ordered = sort.sorted(matching, value: Self.sortValue)
        return (Array(ordered[paging.range(total: ordered.count)]), ordered.count)
    }

    /// The query items of the page after (`+1`) or before (`-1`) this one, if the query
    /// addresses its pages with a size and such a page holds resources.
    func neighbour(_ step: Int, of query: [URLQueryItem], total: Int) -> [URLQueryItem]? {
        paging.neighbour(step, of: query, total: total)
    }

    // MARK: - Reading the parameters

    /// The member a filter parameter names: `title` for `filter[title]` or `title`.
    private static func member(of parameter: String) throws(SyncError) -> String {
        var name = parameter
        if name.hasPrefix("filter["), name.hasSuffix("]") { name = String(name.dropFirst(7).dropLast()) }
        if name.isEmpty || name.contains("[") || name.contains("]") {
            throw .unevaluableQuery(
                parameter: parameter,
                reason: "it is an operator or a nested filter, which only the server defines"
            )
        }
        if name.contains(".") {
            throw .unevaluableQuery(
                parameter: parameter,
                reason: "it filters through a relationship path, which the local copy does not follow"
            )
        }
        return name
    }

    /// Checks that some stored resource has `member` as an attribute or a to-one relationship.
    private static func requireFilterable(
        _ member: String,
        parameter: String,
        in resources: [JSONObject]
    ) throws(SyncError) {
        var isToMany = false
        for resource in resources {
            if resource["attributes"]?[member] != nil { return }
            if let linkage = resource["relationships"]?[member]?["data"] {
                if linkage.arrayValue == nil { return }
                isToMany = true
            }
        }
        throw .unevaluableQuery(
            parameter: parameter,
            reason: isToMany
                ? "\(member) is a to-many relationship, whose filter only the server defines"
                : "no stored record has an attribute or a to-one relationship named \(member), "
                    + "so the server defines it (a search or a custom filter)"
        )
    }

    /// The order of a `sort` parameter: attributes or `id`, `-` for descending.
    private static func sort(_ value: String, resources: [JSONObject]) throws(SyncError) -> LocalSort {
        let sort = LocalSort(parsing: value)
        for key in sort.keys {
            let member = key.name
            let isKnown =
                member == "id" || resources.isEmpty || resources.contains { $0["attributes"]?[member] != nil }
            guard isKnown, !member.contains(".") else {
                throw .unevaluableQuery(
                    parameter: "sort",
                    reason: "\(member) is no attribute of the stored records, so only the server can sort by it"
                )
            }
        }
        return sort
    }

    /// The value a resource sorts by for a key.
    private static func sortValue(_ member: String, of resource: JSONObject) -> JSONValue? {
        let value = member == "id" ? resource["id"] : resource["attributes"]?[member]
        return value?.isNull == false ? value : nil
    }
}
