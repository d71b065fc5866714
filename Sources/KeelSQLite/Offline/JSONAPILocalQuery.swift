import Foundation
import Keel

/// What the query parameters of an offline JSON:API list read ask of the stored resources,
/// when the local copy can answer it as the server would.
///
/// `filter[name]=value` (or `name=value`) keeps the resources whose attribute, or whose
/// to-one relationship's id, equals the value as text (`filter[id]` the resource's id);
/// `sort=-title,id` orders by attributes and the id, stably, missing values last;
/// `include`, `fields[…]` and `page[…]` only shape the document. Anything else a server may
/// mean (a search, an operator such as `filter[title][lt]`, a path such as
/// `filter[author.name]`, a to-many relationship, a name no stored resource has) is thrown
/// as `SyncError.unevaluableQuery(parameter:reason:)` rather than answered with equality.
struct JSONAPILocalQuery {
    private var filters: [(member: String, value: String)] = []
    private var sort = LocalSort()

    /// Reads the parameters of a read whose stored resources are `resources`.
    ///
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a parameter the local
    ///   copy cannot evaluate.
    init(_ query: [URLQueryItem], resources: [JSONObject]) throws(SyncError) {
        for item in query {
            let name = item.name
            if name == "include" || name.hasPrefix("fields[") || name.hasPrefix("page[") { continue }
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

    /// The resources that match every filter, in the order of the sort.
    func answer(_ resources: [JSONObject]) -> [JSONObject] {
        let matching = resources.filter { resource in
            filters.allSatisfy { filter in
                JSONAPIResource.value(of: filter.member, in: resource).map { CachePath.key($0) == filter.value }
                    ?? false
            }
        }
        return sort.sorted(matching, value: Self.sortValue)
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
