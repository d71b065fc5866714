/// How a server splits a list into pages, for a ``Paginator``.
///
/// ```swift
/// let pages = Paginator(notes, style: .pageNumber(perPage: "per_page"), pageSize: 50)
/// let drf = Paginator(articles, style: .djangoREST())
/// ```
public enum PageStyle: Sendable, Hashable {
    /// A page number and a page size in the query (`?page=2&per_page=50`), the first page
    /// being `firstPage`. The total comes from the ``Paginator/totalCountHeader`` when the
    /// server sends it; a `Link` header's `next` and `prev` are followed when present.
    case pageNumber(page: String = "page", perPage: String? = "per_page", firstPage: Int = 1)
    /// An offset and a limit in the query (`?offset=100&limit=50`).
    case offsetLimit(offset: String = "offset", limit: String = "limit")
    /// A cursor: the response names the next page's cursor at `nextKeyPath`
    /// (`meta.next_cursor`), sent back as the `parameter` query value; the records are at
    /// `listKeyPath` (`data`).
    case cursor(parameter: String = "cursor", nextKeyPath: String, listKeyPath: String)
    /// RFC 8288 `Link` headers (GitHub's, and Rails' pagination gems'): the `next` and
    /// `prev` links are followed, resolved against the URL of the page that sent them; the
    /// total comes from the ``Paginator/totalCountHeader``. A page size goes out as `per_page`.
    case linkHeader
    /// Django REST framework's `PageNumberPagination`: the records, the total (`count`) and
    /// the neighbours' links (`next`, `previous`) from its `{"count", "next", "previous",
    /// "results"}` envelope, and any page by number with `?page=N`.
    ///
    /// `page` is the pagination class's `page_query_param`. `pageSize` is its
    /// `page_size_query_param`, which stock DRF leaves unset (the server's `PAGE_SIZE`
    /// decides): ``Paginator/pageSize`` is sent only when you name it.
    ///
    /// ```swift
    /// // class ArticlePagination(PageNumberPagination): page_size_query_param = "size"
    /// let pages = Paginator(articles, style: .djangoREST(pageSize: "size"), pageSize: 50)
    /// ```
    case djangoREST(page: String = "page", pageSize: String? = nil)
    /// JSON:API pages (``WireFormat/jsonAPI``): the neighbours' links from the document's
    /// `links.next` and `links.prev` (`first` and `last` in ``Paginator/pageLinks``), the total
    /// from the number at `totalKeyPath` in the document, and any page by number with
    /// `page[number]=N`; a page size goes out as `page[size]`.
    ///
    /// The defaults are djangorestframework-jsonapi's `JsonApiPageNumberPagination`, whose
    /// total is `meta.pagination.count`.
    ///
    /// ```swift
    /// let pages = Paginator(articles, style: .jsonAPI(), pageSize: 20)
    /// ```
    case jsonAPI(
        page: String = "page[number]",
        pageSize: String? = "page[size]",
        totalKeyPath: String? = "meta.pagination.count"
    )
    /// JSON:API pages addressed by offset, as Drupal's JSON:API module pages: the neighbours'
    /// links from the document's `links.next` and `links.prev` (plain strings or link objects
    /// with an `href`), any page by number as `page[offset]=(N - 1) × size`, and a page size
    /// as `page[limit]` (Drupal's most is 50). Drupal sends no total unless a module adds one;
    /// `totalKeyPath` reads it where one does.
    ///
    /// ```swift
    /// let pages = Paginator(articles, style: .jsonAPIOffset(), pageSize: 20)
    /// ```
    case jsonAPIOffset(offset: String = "page[offset]", limit: String = "page[limit]", totalKeyPath: String? = "meta.count")
}
