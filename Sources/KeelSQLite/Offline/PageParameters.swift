import Keel

/// The names of the page parameters a list read may carry, and the number of its first
/// page: a `PageStyle`'s, or the stock spellings of the page styles when none is known.
///
/// A style's page size and offset names are read beside the stock spellings (`per_page`,
/// `page_size`, `limit`, `offset`), which the app may still pass in its own query; its page
/// number is read by its own name only, since the first page's number depends on the style.
///
/// ```swift
/// PageParameters(.pageNumber(page: "p", perPage: "size", firstPage: 0)).page  // "p"
/// PageParameters(nil).pageSizes  // ["per_page", "page_size", "limit"]
/// ```
struct PageParameters {
    /// The page number's name, if the pages are numbered.
    var page: String?
    /// The names that set a page size.
    var pageSizes: Set<String> = ["per_page", "page_size", "limit"]
    /// The names that set an offset.
    var offsets: Set<String> = ["offset"]
    /// The offset's name in a neighbour's query, when the first page names none.
    var offset: String?
    /// The number of the first page.
    var firstPage = 1

    /// The parameters of `style`; the stock spellings (`page`, pages from 1) for `nil` and
    /// for styles whose pages are reached by links or cursors.
    init(_ style: PageStyle?) {
        switch style {
        case .pageNumber(let page, let perPage, let firstPage):
            self.page = page
            if let perPage { pageSizes.insert(perPage) }
            self.firstPage = firstPage
        case .offsetLimit(let offset, let limit):
            pageSizes.insert(limit)
            offsets.insert(offset)
            self.offset = offset
        case .djangoREST(let page, let size):
            self.page = page
            if let size { pageSizes.insert(size) }
        case .jsonAPI, .jsonAPIOffset, .cursor, .linkHeader, nil:
            page = "page"
            offset = "offset"
        }
    }

    /// The parameters of a JSON:API document's pages as `style` names them: the stock
    /// `page[number]`, `page[size]`, `page[offset]` and `page[limit]` (pages from 1), with a
    /// JSON:API style's own names beside them.
    ///
    /// ```swift
    /// PageParameters(jsonAPI: .jsonAPI(page: "page", pageSize: "size")).pageSizes
    /// // ["page[size]", "page[limit]", "size"]
    /// ```
    init(jsonAPI style: PageStyle?) {
        page = "page[number]"
        pageSizes = ["page[size]", "page[limit]"]
        offsets = ["page[offset]"]
        offset = "page[offset]"
        switch style {
        case .jsonAPI(let page, let pageSize, _):
            self.page = page
            if let pageSize { pageSizes.insert(pageSize) }
        case .jsonAPIOffset(let offset, let limit, _):
            pageSizes.insert(limit)
            offsets.insert(offset)
            self.offset = offset
        default:
            break
        }
    }
}
