import Keel

/// The names of the page parameters a list read may carry, and the number of its first
/// page: a `PageStyle`'s, or the stock spellings of the page styles when none is known.
///
/// ```swift
/// PageParameters(.pageNumber(page: "p", perPage: "size", firstPage: 0)).page  // "p"
/// PageParameters(nil).pageSize  // ["per_page", "page_size", "limit"]
/// ```
struct PageParameters {
    /// The page number's name, if the pages are numbered.
    var page: String?
    /// The names that set a page size.
    var pageSize: Set<String>
    /// The offset's name, if the pages are addressed by offset.
    var offset: String?
    /// The number of the first page.
    var firstPage = 1

    /// The parameters of `style`; the stock spellings (`page`, `per_page`, `page_size`,
    /// `limit`, `offset`, pages from 1) for `nil` and for styles whose pages are reached by
    /// links or cursors.
    init(_ style: PageStyle?) {
        switch style {
        case .pageNumber(let page, let perPage, let firstPage):
            self.page = page
            pageSize = perPage.map { [$0] } ?? []
            self.firstPage = firstPage
        case .offsetLimit(let offset, let limit):
            pageSize = [limit]
            self.offset = offset
        case .djangoREST(let page, let size):
            self.page = page
            pageSize = size.map { [$0] } ?? []
        case .jsonAPI, .jsonAPIOffset, .cursor, .linkHeader, nil:
            page = "page"
            pageSize = ["per_page", "page_size", "limit"]
            offset = "offset"
        }
    }
}
