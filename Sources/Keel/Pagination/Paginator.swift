import Foundation

/// Loads a collection page by page: the first, the next, the previous or a given page,
/// appended to the models already loaded or replacing them, with the collection's usual
/// `add`, `remove`, `update` (or `reset`) and `sync` events.
///
/// It reads the page style's parameters, envelope and headers itself, so the collection
/// needs no `parse` of its own, and it keeps the total and whether there are more pages.
///
/// ```swift
/// let articles = Collection<Article>(url: "/api/articles", sync: api)
/// let pages = Paginator(articles, style: .djangoREST)
/// try await pages.loadFirstPage()
/// while pages.hasNextPage { try await pages.loadNextPage() }
/// print(articles.length, pages.totalCount ?? 0)
/// ```
public final class Paginator<M: Model> {
    /// The collection the pages go into.
    public let collection: Collection<M>
    /// How the server splits the list.
    public let style: PageStyle
    /// The number of records per page to ask for, if the style sends one; `nil` leaves it
    /// to the server.
    public var pageSize: Int?
    /// Whether a page is added to the models already loaded (an endless list) rather than
    /// replacing them (a paged table).
    public var appends: Bool
    /// The response header that holds the total number of records, for the styles without an
    /// envelope.
    public var totalCountHeader: String

    /// The number of the page loaded last, from 1; `nil` before the first.
    public private(set) var currentPage: Int?
    /// The total number of records, when the server says.
    public private(set) var totalCount: Int?
    /// Whether there is a page after the current one (`true` before the first page).
    public private(set) var hasNextPage = true
    /// Whether there is a page before the current one.
    public var hasPreviousPage: Bool { previousURL != nil || (currentPage ?? 1) > 1 }

    private var nextURL: String?
    private var previousURL: String?
    private var nextCursor: String?
    private var cursors: [Int: String] = [:]

    /// Creates a paginator for a collection; nothing is loaded yet.
    ///
    /// ```swift
    /// let pages = Paginator(notes, style: .pageNumber(), pageSize: 25, appends: false)
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The collection to fill; its URL, backend and wire format are used.
    ///   - style: How the server splits the list.
    ///   - pageSize: The page size to ask for; `nil` for the server's.
    ///   - appends: Add pages to the loaded models instead of replacing them.
    ///   - totalCountHeader: The header with the total number of records.
    public init(
        _ collection: Collection<M>,
        style: PageStyle,
        pageSize: Int? = nil,
        appends: Bool = true,
        totalCountHeader: String = "X-Total-Count"
    ) {
        self.collection = collection
        self.style = style
        self.pageSize = pageSize
        self.appends = appends
        self.totalCountHeader = totalCountHeader
    }

    /// Loads the first page, replacing whatever the collection held.
    ///
    /// ```swift
    /// try await pages.loadFirstPage()
    /// ```
    ///
    /// - Returns: The models of the page.
    /// - Throws: ``SyncError``.
    @discardableResult
    public func loadFirstPage() async throws(SyncError) -> [M] {
        cursors = [:]
        return try await load(page: 1, url: nil, replacing: true)
    }

    /// Loads the page after the current one (the first, if none is loaded).
    ///
    /// ```swift
    /// if pages.hasNextPage { try await pages.loadNextPage() }
    /// ```
    ///
    /// - Returns: The models of the page; none when there is no next page.
    /// - Throws: ``SyncError``.
    @discardableResult
    public func loadNextPage() async throws(SyncError) -> [M] {
        guard let current = currentPage else { return try await loadFirstPage() }
        guard hasNextPage else { return [] }
        if case .cursor = style, let nextCursor { cursors[current + 1] = nextCursor }
        return try await load(page: current + 1, url: nextURL, replacing: !appends)
    }

    /// Loads the page before the current one.
    ///
    /// ```swift
    /// if pages.hasPreviousPage { try await pages.loadPreviousPage() }
    /// ```
    ///
    /// - Returns: The models of the page; none when there is no previous page.
    /// - Throws: ``SyncError``.
    @discardableResult
    public func loadPreviousPage() async throws(SyncError) -> [M] {
        guard let current = currentPage, hasPreviousPage else { return [] }
        return try await load(page: current - 1, url: previousURL, replacing: !appends)
    }

    /// Loads a page by number, from 1, replacing the loaded models unless ``appends``.
    ///
    /// ```swift
    /// try await pages.loadPage(3)
    /// ```
    ///
    /// - Parameter number: The page number; for cursor and `Link` styles only pages already
    ///   visited (and the first) can be loaded by number.
    /// - Returns: The models of the page.
    /// - Throws: ``SyncError``; ``SyncError/pageUnavailable(_:reason:)`` for a number below
    ///   1 or a page that the style cannot address by number (nothing is sent).
    @discardableResult
    public func loadPage(_ number: Int) async throws(SyncError) -> [M] {
        guard number >= 1 else { throw .pageUnavailable(number, reason: "pages start at 1") }
        switch style {
        case .linkHeader, .djangoREST:
            guard number == 1 || number == currentPage else {
                throw .pageUnavailable(number, reason: "these pages are reached by their links, from their neighbours")
            }
        case .cursor:
            guard number == 1 || cursors[number] != nil else {
                throw .pageUnavailable(number, reason: "its cursor is not known yet")
            }
        case .pageNumber, .offsetLimit:
            break
        }
        return try await load(page: number, url: nil, replacing: !appends || number == 1)
    }

    // MARK: - Loading

    private func load(page: Int, url: String?, replacing: Bool) async throws(SyncError) -> [M] {
        var format = collection.wireFormat ?? M.wireFormat
        switch style {
        case .djangoREST: format.listKeyPath = "results"
        case .cursor(_, _, let listKeyPath): format.listKeyPath = listKeyPath
        default: break
        }
        var captured: SyncResponse?
        let pageURL: String
        if let url { pageURL = url } else { pageURL = try self.pageURL(page, format: format) }
        var options = SyncOptions(url: pageURL, wireFormat: format)
        options.onSuccess = { captured = $0 }
        if !replacing { options.remove = false }
        let models = try await collection.fetch(reset: replacing, options: options)
        if let captured { read(captured, page: page, loaded: models.count) }
        currentPage = page
        return models
    }

    /// The URL of a page addressed by its number (or cursor) in the query.
    private func pageURL(_ page: Int, format: WireFormat) throws(SyncError) -> String {
        guard let path = collection.url, !path.isEmpty else {
            throw .missingURL("\(type(of: collection)) has no url")
        }
        var query: [(String, String)] = []
        switch style {
        case .pageNumber(let parameter, let perPage, let firstPage):
            query.append((parameter, String(firstPage + page - 1)))
            if let perPage, let pageSize { query.append((perPage, String(pageSize))) }
        case .offsetLimit(let offset, let limit):
            let size = pageSize ?? max(collection.length, 1)
            query.append((offset, String((page - 1) * size)))
            if let pageSize { query.append((limit, String(pageSize))) }
        case .cursor(let parameter, _, _):
            if let cursor = cursors[page] { query.append((parameter, cursor)) }
            if let pageSize { query.append(("page_size", String(pageSize))) }
        case .djangoREST:
            if page > 1 { query.append(("page", String(page))) }
            if let pageSize { query.append(("page_size", String(pageSize))) }
        case .linkHeader:
            if let pageSize { query.append(("per_page", String(pageSize))) }
        }
        let base = format.suffixed(path)
        guard !query.isEmpty else { return base }
        let encoded = query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + encoded
    }

    /// Takes the total, the neighbours' links and the next cursor from a page's response.
    private func read(_ response: SyncResponse, page: Int, loaded: Int) {
        let links = LinkHeader.links(in: response.headers["link"])
        nextURL = links["next"]
        previousURL = links["prev"] ?? links["previous"]
        if let header = response.headers[totalCountHeader.lowercased()], let total = Int(header) { totalCount = total }
        switch style {
        case .djangoREST:
            totalCount = response.body?["count"]?.intValue ?? totalCount
            nextURL = response.body?["next"]?.stringValue
            previousURL = response.body?["previous"]?.stringValue
            hasNextPage = nextURL != nil
        case .cursor(_, let nextKeyPath, _):
            var value = response.body
            for key in nextKeyPath.split(separator: ".") { value = value?[String(key)] }
            nextCursor = value?.stringValue ?? value?.intValue.map(String.init)
            hasNextPage = nextCursor != nil
        case .linkHeader:
            hasNextPage = nextURL != nil
        case .pageNumber, .offsetLimit:
            if !links.isEmpty {
                hasNextPage = nextURL != nil
            } else if let totalCount, let pageSize {
                hasNextPage = page * pageSize < totalCount
            } else {
                hasNextPage = loaded > 0 && (pageSize.map { loaded >= $0 } ?? true)
            }
            // Page numbers address the neighbours themselves.
            nextURL = nil
            previousURL = nil
        }
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? text
    }
}

extension CharacterSet {
    /// RFC 3986's unreserved characters: what a query value keeps unencoded.
    fileprivate static let urlQueryValueAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )
}
