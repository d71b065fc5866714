import Foundation
import Keel
import KeelSQLite
import Synchronization
import Testing

/// A server that pages `/notes` as DRF's `PageNumberPagination` does (`page`, `page_size`,
/// three a page by default, the `{"count", "next", "previous", "results"}` envelope) or, with
/// `linkHeader`, as a bare list with a `Link` header; and that can go offline.
private final class PagingRemote: Sync {
    enum Style { case envelope, linkHeader }
    let style: Style
    private let state: Mutex<(titles: [String], isOnline: Bool)>

    init(_ style: Style, titles: [String]) {
        self.style = style
        state = Mutex((titles, true))
    }

    var isOnline: Bool {
        get { state.withLock { $0.isOnline } }
        set { state.withLock { $0.isOnline = newValue } }
    }

    var titles: [String] {
        get { state.withLock { $0.titles } }
        set { state.withLock { $0.titles = newValue } }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let (titles, isOnline) = state.withLock { ($0.titles, $0.isOnline) }
        guard isOnline else { throw .transport("Could not connect to the server.") }
        let query = Dictionary(
            (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            } + request.query.map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { $1 }
        )
        let page = Int(query["page"] ?? "1") ?? 1
        let size = Int(query["page_size"] ?? query["per_page"] ?? "3") ?? 3
        let records = titles.enumerated().map {
            JSONValue.object(["id": .int($0.offset + 1), "title": .string($0.element)])
        }
        let slice = Array(records.dropFirst((page - 1) * size).prefix(size))
        let next = page * size < records.count ? "/notes?page=\(page + 1)&page_size=\(size)" : nil
        let previous = page > 1 ? "/notes?page=\(page - 1)&page_size=\(size)" : nil
        switch style {
        case .envelope:
            return SyncResponse(
                status: 200,
                body: [
                    "count": .int(records.count), "next": next.map(JSONValue.string) ?? .null,
                    "previous": previous.map(JSONValue.string) ?? .null, "results": .array(slice),
                ]
            )
        case .linkHeader:
            let links = [(next, "next"), (previous, "prev")].compactMap { url, relation in
                url.map { "<\($0)>; rel=\"\(relation)\"" }
            }
            return SyncResponse(status: 200, headers: ["link": links.joined(separator: ", ")], body: .array(slice))
        }
    }
}

/// DRF's paginated lists and the page styles' query parameters through the offline cache:
/// pages are stored (a page never deletes the records of the others), and a list answered
/// locally is filtered, ordered and cut into pages as the server would, in the server's shape.
@MainActor
struct OfflinePagedListTests {
    final class Note: Model {
        override class var wireFormat: WireFormat { .djangoREST }
    }

    private static let titles = (1...7).map { "Note \($0)" }

    final class Plain: Model {}

    private func cache(_ remote: PagingRemote) throws -> CachingSync {
        CachingSync(remote: remote, local: try SQLiteOfflineStore.inMemory())
    }

    /// A cache that read every page of seven records: DRF's, or plain ones paged by `Link`
    /// headers.
    private func cacheOfEveryPage(_ style: PagingRemote.Style) async throws -> (CachingSync, PagingRemote) {
        let remote = PagingRemote(style, titles: Self.titles)
        let cache = try cache(remote)
        switch style {
        case .envelope:
            try await loadEveryPage(Paginator(Collection<Note>(url: "/notes", sync: cache), style: .djangoREST()))
        case .linkHeader:
            try await loadEveryPage(Paginator(Collection<Plain>(url: "/notes", sync: cache), style: .linkHeader))
        }
        return (cache, remote)
    }

    private func loadEveryPage<M: Model>(_ pages: Paginator<M>) async throws {
        try await pages.loadFirstPage()
        while pages.hasNextPage { try await pages.loadNextPage() }
    }

    @Test func drfPagesAreStoredAndPagedOfflineWithTheSameEnvelope() async throws {
        let remote = PagingRemote(.envelope, titles: Self.titles)
        let cache = try cache(remote)
        let online = Collection<Note>(url: "/notes", sync: cache)
        let loading = Paginator(online, style: .djangoREST(pageSize: "page_size"), pageSize: 3)
        try await loading.loadFirstPage()
        while loading.hasNextPage { try await loading.loadNextPage() }
        #expect(online.length == 7)

        remote.isOnline = false
        let offline = Collection<Note>(url: "/notes", sync: cache)
        let pages = Paginator(offline, style: .djangoREST(pageSize: "page_size"), pageSize: 3, appends: false)
        try await pages.loadFirstPage()
        #expect(offline.pluck("title") == ["Note 1", "Note 2", "Note 3"])
        #expect(pages.totalCount == 7 && pages.hasNextPage && !pages.hasPreviousPage)
        try await pages.loadNextPage()
        try await pages.loadNextPage()
        #expect(offline.pluck("title") == ["Note 7"])
        #expect(!pages.hasNextPage && pages.hasPreviousPage)
        try await pages.loadPreviousPage()
        #expect(offline.pluck("title") == ["Note 4", "Note 5", "Note 6"])
    }

    @Test func withoutAPageSizeTheFirstLocalPageHoldsEveryRecord() async throws {
        let (cache, remote) = try await cacheOfEveryPage(.envelope)

        remote.isOnline = false
        let offline = Collection<Note>(url: "/notes", sync: cache)
        let pages = Paginator(offline, style: .djangoREST())
        try await pages.loadFirstPage()
        #expect(offline.length == 7)
        #expect(pages.totalCount == 7 && !pages.hasNextPage)
    }

    @Test func aFirstPageDoesNotDeleteTheRecordsOfLaterPages() async throws {
        let (cache, remote) = try await cacheOfEveryPage(.envelope)
        try await Paginator(Collection<Note>(url: "/notes", sync: cache), style: .djangoREST()).loadFirstPage()
        try await Collection<Note>(url: "/notes", sync: cache).fetch()

        remote.isOnline = false
        let offline = Collection<Note>(url: "/notes", sync: cache)
        try await offline.fetch()
        #expect(offline.length == 7)
    }

    @Test func aWholeListInOneEnvelopeDeletesWhatTheServerNoLongerHas() async throws {
        let remote = PagingRemote(.envelope, titles: ["A", "B"])
        let cache = try cache(remote)
        try await Collection<Note>(url: "/notes", sync: cache).fetch()
        remote.titles = ["A"]
        let online = Collection<Note>(url: "/notes", sync: cache)
        try await online.fetch()
        #expect(online.pluck("title") == ["A"])

        remote.isOnline = false
        let offline = Collection<Note>(url: "/notes", sync: cache)
        try await offline.fetch()
        #expect(offline.pluck("title") == ["A"])
    }

    @Test func aListWithANextLinkHeaderIsAPageAndIsPagedOfflineWithLinks() async throws {
        let (cache, remote) = try await cacheOfEveryPage(.linkHeader)
        try await Collection<Plain>(url: "/notes", sync: cache).fetch()

        remote.isOnline = false
        let offline = Collection<Plain>(url: "/notes", sync: cache)
        let pages = Paginator(offline, style: .linkHeader, pageSize: 3, appends: false)
        try await pages.loadFirstPage()
        #expect(offline.pluck("title") == ["Note 1", "Note 2", "Note 3"])
        #expect(pages.hasNextPage)
        try await pages.loadNextPage()
        try await pages.loadNextPage()
        #expect(offline.pluck("title") == ["Note 7"])
        #expect(!pages.hasNextPage)
    }

    @Test func pageNumbersAndOffsetsCutTheLocalListAndEndThePaging() async throws {
        let (cache, remote) = try await cacheOfEveryPage(.linkHeader)

        remote.isOnline = false
        let rails = Collection<Plain>(url: "/notes", sync: cache)
        let pages = Paginator(rails, style: .pageNumber(), pageSize: 3, appends: true)
        try await pages.loadFirstPage()
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(rails.length == 7)
        #expect(pages.currentPage == 3)

        let offsets = Collection<Plain>(url: "/notes", sync: cache)
        try await offsets.fetch(options: SyncOptions(query: ["offset": "5", "limit": "3"]))
        #expect(offsets.pluck("title") == ["Note 6", "Note 7"])
    }

    @Test func aPaginatorsOwnParameterNamesAndFirstPageAreReadLocally() async throws {
        let (cache, remote) = try await cacheOfEveryPage(.linkHeader)

        remote.isOnline = false
        let fromZero = Collection<Plain>(url: "/notes", sync: cache)
        let pages = Paginator(fromZero, style: .pageNumber(page: "p", perPage: "size", firstPage: 0), pageSize: 3)
        try await pages.loadFirstPage()
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(fromZero.pluck("title") == Self.titles.map(JSONValue.string))
        #expect(pages.currentPage == 3)
        pages.appends = false
        try await pages.loadPage(2)
        #expect(fromZero.pluck("title") == ["Note 4", "Note 5", "Note 6"])

        let skipped = Collection<Plain>(url: "/notes", sync: cache)
        let offsets = Paginator(skipped, style: .offsetLimit(offset: "skip", limit: "take"), pageSize: 3)
        try await offsets.loadFirstPage()
        while offsets.hasNextPage { try await offsets.loadNextPage() }
        #expect(skipped.pluck("title") == Self.titles.map(JSONValue.string))

        // A style that names no page size still reads the stock spellings the app passes.
        let sized = Collection<Plain>(url: "/notes", sync: cache)
        var options = SyncOptions(query: ["page": "2", "page_size": "3"])
        options.pageStyle = .djangoREST()
        try await sized.fetch(options: options)
        #expect(sized.pluck("title") == ["Note 4", "Note 5", "Note 6"])
    }

    @Test func orderingAndFiltersAreEvaluatedLocally() async throws {
        let remote = PagingRemote(.envelope, titles: ["c", "a", "c"])
        let cache = try cache(remote)
        try await Collection<Note>(url: "/notes", sync: cache).fetch()

        remote.isOnline = false
        let notes = Collection<Note>(url: "/notes", sync: cache)
        try await notes.fetch(options: SyncOptions(query: ["ordering": "-title,id"]))
        #expect(notes.pluck("id") == [1, 3, 2])
        try await notes.fetch(options: SyncOptions(query: ["title": "c", "format": "json"]))
        #expect(notes.pluck("id") == [1, 3])
    }

    @Test(arguments: ["search", "cursor", "author__name", "ordering"])
    func aParameterOnlyTheServerUnderstandsThrowsInsteadOfAnsweringNothing(parameter: String) async throws {
        let remote = PagingRemote(.envelope, titles: ["A"])
        let cache = try cache(remote)
        try await Collection<Note>(url: "/notes", sync: cache).fetch()

        remote.isOnline = false
        let notes = Collection<Note>(url: "/notes", sync: cache)
        let value = parameter == "ordering" ? "-author" : "x"
        let error = await #expect(throws: SyncError.self) {
            _ = try await notes.fetch(options: SyncOptions(query: [parameter: value]))
        }
        guard case .unevaluableQuery(let name, _)? = error else {
            Issue.record("expected unevaluableQuery, got \(String(describing: error))")
            return
        }
        #expect(name == parameter)
    }
}
