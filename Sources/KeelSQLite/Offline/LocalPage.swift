import Foundation
import Keel

/// The page that a list read's page parameters cut from the ordered records, and the
/// queries of its neighbours, as the server would name them.
///
/// Pages are numbered from the names' first page; without a page size, the first page holds
/// every record and later pages none.
///
/// ```swift
/// var page = LocalPage(PageParameters(nil))
/// _ = try page.read("page", "2")
/// _ = try page.read("per_page", "10")
/// page.range(total: 25)  // 10..<20
/// ```
struct LocalPage {
    /// The names of the page parameters.
    let names: PageParameters
    private var page: Int?
    private var pageSize: Int?
    private var offset: Int?

    init(_ names: PageParameters) {
        self.names = names
    }

    /// Reads a query parameter if it is one of the page parameters.
    ///
    /// - Returns: Whether it was one.
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a page number below the
    ///   first page, a size below 1 or an offset below 0, or a value that is no whole number.
    mutating func read(_ name: String, _ value: String) throws(SyncError) -> Bool {
        if name == names.page {
            page = try Self.count(value, parameter: name, least: names.firstPage)
        } else if names.pageSizes.contains(name) {
            pageSize = try Self.count(value, parameter: name, least: 1)
        } else if names.offsets.contains(name) {
            offset = try Self.count(value, parameter: name, least: 0)
        } else {
            return false
        }
        return true
    }

    /// The positions of the page in `total` ordered records.
    func range(total: Int) -> Range<Int> {
        let start: Int
        if let offset {
            start = offset
        } else if let page {
            guard let pageSize else { return page == names.firstPage ? 0..<total : total..<total }
            let (product, overflow) = (page - names.firstPage).multipliedReportingOverflow(by: pageSize)
            start = overflow ? total : product
        } else {
            start = 0
        }
        let lower = min(start, total)
        guard let pageSize else { return lower..<total }
        return lower..<(lower + min(pageSize, total - lower))
    }

    /// The query items of the page after (`+1`) or before (`-1`) this one, if the query
    /// addresses its pages by number or offset with a size and such a page holds records.
    func neighbour(_ step: Int, of query: [URLQueryItem], total: Int) -> [URLQueryItem]? {
        guard let pageSize else { return nil }
        let range = range(total: total)
        if step > 0 ? range.upperBound >= total : range.lowerBound == 0 { return nil }
        var items = query.map { item in
            if let offset, names.offsets.contains(item.name) {
                return URLQueryItem(name: item.name, value: String(max(0, offset + step * pageSize)))
            }
            if offset == nil, let page, item.name == names.page {
                return URLQueryItem(name: item.name, value: String(page + step))
            }
            return item
        }
        // The first page may go without its number (DRF's page 1) or offset: the next names it.
        if offset == nil, page == nil, step > 0 {
            if let name = names.page {
                items.append(URLQueryItem(name: name, value: String(names.firstPage + 1)))
            } else if let name = names.offset {
                items.append(URLQueryItem(name: name, value: String(pageSize)))
            }
        }
        return items
    }

    /// A page number, size or offset: a whole number of at least `least`.
    private static func count(_ value: String, parameter: String, least: Int) throws(SyncError) -> Int {
        guard let number = Int(value), number >= least else {
            throw .unevaluableQuery(
                parameter: parameter,
                reason: "\(value) is not a whole number of at least \(least)"
            )
        }
        return number
    }
}
