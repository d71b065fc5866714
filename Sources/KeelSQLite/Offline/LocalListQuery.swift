import Foundation
import Keel

/// What the query parameters of an offline list read (plain JSON, not JSON:API) ask of the
/// stored records, when the local copy can answer it as the server would.
///
/// A parameter that names an attribute of a stored record keeps the records whose attribute
/// equals the value as text (`?done=true`), as `RecordStore` does. Otherwise the stock
/// parameters of the page styles and of DRF's ordering are evaluated: `ordering` or `sort`
/// (`-created_at,id`) orders by attributes, stably, missing values last; `page`,
/// `per_page`/`page_size`/`limit` and `offset` cut a page of the ordered records, pages
/// numbered from 1 (without a page size, page 1 holds every record and later pages none);
/// `format` (DRF's `?format=json`) is ignored. A read of one page that names its
/// `SyncRequest.pageStyle` (a `Paginator`'s) is read by that style's page parameter and
/// first page number, its size and offset names beside the stock ones
/// (`.pageNumber(page: "p", perPage: "size", firstPage: 0)`).
/// Anything else a server may mean (a search, a cursor, a custom filter whose name no stored
/// record has) is thrown as `SyncError.unevaluableQuery(parameter:reason:)` rather than
/// answered with an empty list.
struct LocalListQuery {
    private var filters: [(name: String, value: String)] = []
    private var sort = LocalSort()
    private var paging: LocalPage

    /// Reads the parameters of a read whose stored records are `records`, the pages split
    /// as `style` says (the stock spellings when `nil`).
    ///
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a parameter the local
    ///   copy cannot evaluate.
    init(_ query: [URLQueryItem], records: [JSONObject], style: PageStyle? = nil) throws(SyncError) {
        paging = LocalPage(PageParameters(style))
        for item in query {
            let name = item.name
            let value = item.value ?? ""
            if records.isEmpty || records.contains(where: { $0[name] != nil }) {
                filters.append((name, value))
            } else if name == "ordering" || name == "sort" {
                sort = try Self.sort(value, parameter: name, records: records)
            } else if try paging.read(name, value) {
                continue
            } else if name != "format" {
                throw .unevaluableQuery(
                    parameter: name,
                    reason: name == "cursor"
                        ? "a cursor names a place in the server's list, which the local copy cannot find"
                        : "no stored record has an attribute named \(name), so the server defines it "
                            + "(a search or a custom filter)"
                )
            }
        }
    }

    /// The records that match every filter, in the order of the sort, and their number
    /// before the page was cut.
    func answer(_ records: [JSONObject]) -> (page: [JSONObject], total: Int) {
        let matching = records.filter { record in
            filters.allSatisfy { filter in
                record[filter.name].map { CachePath.key($0) == filter.value } ?? false
            }
        }
        let ordered = sort.sorted(matching) { name, record in record[name] }
        let range = paging.range(total: ordered.count)
        return (Array(ordered[range]), ordered.count)
    }

    /// The query items of the page after (`+1`) or before (`-1`) this one, if the query
    /// addresses its pages by number or offset with a size and such a page holds records.
    func neighbour(_ step: Int, of query: [URLQueryItem], total: Int) -> [URLQueryItem]? {
        paging.neighbour(step, of: query, total: total)
    }

    // MARK: - Reading the parameters

    /// The order of an `ordering` or `sort` parameter: attributes, `-` for descending.
    private static func sort(_ value: String, parameter: String, records: [JSONObject]) throws(SyncError) -> LocalSort {
        let sort = LocalSort(parsing: value)
        for key in sort.keys where !records.contains(where: { $0[key.name] != nil }) {
            throw .unevaluableQuery(
                parameter: parameter,
                reason: "\(key.name) is no attribute of the stored records, so only the server can sort by it"
            )
        }
        return sort
    }
}
