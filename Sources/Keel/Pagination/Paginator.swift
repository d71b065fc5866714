import Foundation

/// Loads a collection page by page: the first, the next, the previous or a given page,
/// appended to the models already loaded or replacing them, with the collection's usual
/// `add`, `remove`, `update` (or `reset`) and `sync` events.
///
/// It reads the page style's parameters, envelope and headers itself, so the collection
/// needs no `parse` of its own, and it keeps the total and whether there are more pages.
/// Relative `next` and `previous` links resolve against the URL of the page that sent them
/// (RFC 3986), and a link back to a page already loaded ends the paging with an error
/// instead of looping.
///
/// ```swift
/// let articles = Collection<Article>(url: "/api/articles", sync: api)
/// let pages = Paginator(articles, style: .djangoREST())
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
    /// The related resources and sparse fieldsets every page asks for (JSON:API's `include`
    /// and `fields[type]`), as ``SyncOptions/resources`` does for one fetch.
    ///
    /// A page reached by a link the server sent keeps the link's own `include` and
    /// `fields[type]` parameters; only those it lacks are added.
    public var resources: ResourceSelection

    /// The number of the page loaded last, from 1; `nil` before the first.
    public private(set) var currentPage: Int?
    /// The total number of records, when the server says.
    public private(set) var totalCount: Int?
    /// Whether there is a page after the current one (`true` before the first page).
    public private(set) var hasNextPage = true
    /// Whether there is a page before the current one.
    public var hasPreviousPage: Bool { previousURL != nil || (currentPage ?? 1) > 1 }
    /// The page links of the last response, by relation (`first`, `last`, `next`, `prev`),
    /// resolved against its URL: a JSON:API document's `links`; empty for the other styles.
    public private(set) var pageLinks: [String: String] = [:]

    private var nextURL: String?
    private var previousURL: String?
    private var nextCursor: String?
    private var cursors: [Int: String] = [:]
    /// The URL each page loaded since the first came from, to load it again by number and to
    /// catch a link that leads back.
    private var pageURLs: [Int: String] = [:]

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
    ///   - resources: The related resources and sparse fieldsets every page asks for.
    public init(
        _ collection: Collection<M>,
        style: PageStyle,
        pageSize: Int? = nil,
        appends: Bool = true,
        totalCountHeader: String = "X-Total-Count",
        resources: ResourceSelection = ResourceSelection()
    ) {
        self.collection = collection
        self.style = style
        self.pageSize = pageSize
        self.appends = appends
        self.totalCountHeader = totalCountHeader
        self.resources = resources
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
        pageURLs = [:]
        return try await load(page: 1, url: nil, replacing: true)
    }

    /// Loads the page after the current one (the first, if none is loaded).
    ///
    /// ```swift
    /// if pages.hasNextPage { try await pages.loadNextPage() }
    /// ```
    ///
    /// - Returns: The models of the page; none when there is no next page.
    /// - Throws: ``SyncError``; ``SyncError/pageUnavailable(_:reason:)`` when the server's
    ///   `next` link leads back to a page already loaded (nothing is sent, and
    ///   ``hasNextPage`` becomes `false`).
    @discardableResult
    public func loadNextPage() async throws(SyncError) -> [M] {
        guard let current = currentPage else { return try await loadFirstPage() }
        guard hasNextPage else { return [] }
        if case .cursor = style, let nextCursor { cursors[current + 1] = nextCursor }
        if let nextURL, let earlier = loadedPage(at: nextURL), earlier <= current {
            hasNextPage = false
            throw .pageUnavailable(
                current + 1,
                reason: "the server's next link \(nextURL) leads back to page \(earlier), already loaded"
            )
        }
        return try await load(page: current + 1, url: nextURL, replacing: !appends)
    }

    /// Loads the page before the current one.
    ///
    /// ```swift
    /// if pages.hasPreviousPage { try await pages.loadPreviousPage() }
    /// ```
    ///
    /// - Returns: The models of the page; none when there is no previous page.
    /// - Throws: ``SyncError``; ``SyncError/pageUnavailable(_:reason:)`` when the server's
    ///   `previous` link leads to the current page or one after it (nothing is sent).
    @discardableResult
    public func loadPreviousPage() async throws(SyncError) -> [M] {
        guard let current = currentPage, hasPreviousPage else { return [] }
        if let previousURL, let later = loadedPage(at: previousURL), later >= current {
            throw .pageUnavailable(
                current - 1,
                reason: "the server's previous link \(previousURL) leads to page \(later), not back"
            )
        }
        return try await load(page: current - 1, url: previousURL, replacing: !appends)
    }

    /// Loads a page by number, from 1, replacing the loaded models unless ``appends``.
    ///
    /// ```swift
    /// try await pages.loadPage(3)
    /// ```
    ///
    /// Page numbers, offsets and ``PageStyle/djangoREST(page:pageSize:)`` address any page
    /// (DRF answers a page past the end with 404, thrown as ``SyncError/httpStatus(_:body:)``);
    /// cursor and `Link` pages are reached from their neighbours, so only the first and those
    /// loaded since ``loadFirstPage()`` load by number, from the cursor or URL they came from.
    ///
    /// - Parameter number: The page number.
    /// - Returns: The models of the page.
    /// - Throws: ``SyncError``; ``SyncError/pageUnavailable(_:reason:)`` for a number below
    ///   1 or a page that the style cannot address by number (nothing is sent).
    @discardableResult
    public func loadPage(_ number: Int) async throws(SyncError) -> [M] {
        guard number >= 1 else { throw .pageUnavailable(number, reason: "pages start at 1") }
        var url: String?
        switch style {
        case .linkHeader:
            guard number == 1 || pageURLs[number] != nil else {
                throw .pageUnavailable(
                    number,
                    reason: "its link is not known yet (pages are reached from their neighbours)"
                )
            }
            url = number == 1 ? nil : pageURLs[number]
        case .cursor:
            guard number == 1 || cursors[number] != nil else {
                throw .pageUnavailable(number, reason: "its cursor is not known yet")
            }
        case .pageNumber, .offsetLimit, .djangoREST, .jsonAPI, .jsonAPIOffset:
            break
        }
        return try await load(page: number, url: url, replacing: !appends || number == 1)
    }

    // MARK: - Loading

    private func load(page: Int, url: String?, replacing: Bool) async throws(SyncError) -> [M] {
        var format = collection.wireFormat ?? M.wireFormat
        switch style {
        case .djangoREST:
            format.listKeyPath = "results"
            format.requiresListKeyPath = true
        case .cursor(_, _, let listKeyPath):
            format.listKeyPath = listKeyPath
            format.requiresListKeyPath = true
        default:
            break
        }
        var captured: SyncResponse?
        let pageURL: String
        if let url { pageURL = url } else { pageURL = try self.pageURL(page, format: format) }
        var options = SyncOptions(url: pageURL, wireFormat: format)
        options.resources = url.map { resources.missing(from: $0) } ?? resources
        options.pageStyle = style
        options.onSuccess = { captured = $0 }
        if !replacing { options.remove = false }
        let models = try await collection.fetch(reset: replacing, options: options)
        if let captured {
            let answered = captured.url?.absoluteString ?? pageURL
            pageURLs[page] = answered
            read(captured, page: page, base: answered, loaded: models.count)
        }
        currentPage = page
        return models
    }

    /// The number of the page loaded from a URL since the first page, if any.
    private func loadedPage(at url: String) -> Int? {
        pageURLs.first { $0.value == url }?.key
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
        case .djangoREST(let parameter, let perPage):
            if page > 1 { query.append((parameter, String(page))) }
            if let perPage, let pageSize { query.append((perPage, String(pageSize))) }
        case .linkHeader:
            if let pageSize { query.append(("per_page", String(pageSize))) }
        case .jsonAPI(let parameter, let perPage, _):
            if page > 1 { query.append((parameter, String(page))) }
            if let perPage, let pageSize { query.append((perPage, String(pageSize))) }
        case .jsonAPIOffset(let offset, let limit, _):
            let size = pageSize ?? max(collection.length, 1)
            if page > 1 { query.append((offset, String((page - 1) * size))) }
            if let pageSize { query.append((limit, String(pageSize))) }
        }
        var base = format.suffixed(path)
        guard !query.isEmpty else { return base }
        // A query written with raw brackets (JSON:API's `?filter[title]=x`) is no valid URL, and
        // making one of it would encode the page parameters' `%` again: encode them first.
        if let start = base.firstIndex(of: "?") {
            let rest = base[start...].replacing("[", with: "%5B").replacing("]", with: "%5D")
            base = String(base[..<start]) + rest
        }
        let encoded = query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + encoded
    }

    /// Takes the total, the neighbours' links (resolved against `base`, the page's URL) and
    /// the next cursor from a page's response.
    private func read(_ response: SyncResponse, page: Int, base: String, loaded: Int) {
        let links = LinkHeader.links(in: response.headers["link"])
        let resolved = { (link: String?) in link.map { URLReference.resolve($0, against: base) } }
        nextURL = resolved(links["next"])
        previousURL = resolved(links["prev"] ?? links["previous"])
        if let header = response.headers[totalCountHeader.lowercased()], let total = Int(header) { totalCount = total }
        switch style {
        case .djangoREST:
            totalCount = response.body?["count"]?.intValue ?? totalCount
            nextURL = resolved(response.body?["next"]?.stringValue)
            previousURL = resolved(response.body?["previous"]?.stringValue)
            hasNextPage = nextURL != nil
        case .cursor(_, let nextKeyPath, _):
            let value = Self.value(at: nextKeyPath, in: response.body)
            nextCursor = value?.stringValue ?? value?.intValue.map(String.init)
            hasNextPage = nextCursor != nil
        case .linkHeader:
            hasNextPage = nextURL != nil
        case .jsonAPI(_, _, let totalKeyPath), .jsonAPIOffset(_, _, let totalKeyPath):
            var links: [String: String] = [:]
            for (name, value) in response.body?["links"]?.objectValue ?? [:] {
                // JSON:API links are URLs or link objects (`{"href": …}`, as Drupal sends them).
                if let link = resolved(value.stringValue ?? value["href"]?.stringValue) { links[name] = link }
            }
            pageLinks = links
            if let totalKeyPath, let total = Self.value(at: totalKeyPath, in: response.body)?.intValue {
                totalCount = total
            }
            nextURL = links["next"]
            previousURL = links["prev"]
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

    /// The value at a dot-separated key path of a body.
    private static func value(at keyPath: String, in body: JSONValue?) -> JSONValue? {
        var value = body
        for key in keyPath.split(separator: ".") { value = value?[String(key)] }
        return value
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
