import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// A DRF list paged by stock `PageNumberPagination` (`/drf/paged-articles/`, three a page,
/// no page-size parameter) read through the offline cache against the real test server:
/// the pages read online are there offline.
@MainActor
struct OfflinePagedListServerTests {
    @Test func everyPageReadOnlineIsReadOfflineAsOneLocalPage() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await RestartableServer(directory: directory)
            let cache = CachingSync(
                remote: RESTSync(baseURL: server.baseURL, timeout: .seconds(5)),
                local: try SQLiteOfflineStore(fileURL: directory.appending(path: "cache.sqlite"))
            )
            let all = Collection<Article>(url: "/drf/articles", sync: RESTSync(baseURL: server.baseURL))
            for index in 1...7 { try await all.create(["title": .string("Article \(index)")], wait: true) }

            let online = Collection<Article>(url: "/drf/paged-articles", sync: cache)
            let loading = Paginator(online, style: .djangoREST())
            try await loading.loadFirstPage()
            while loading.hasNextPage { try await loading.loadNextPage() }
            #expect(online.length == 7 && loading.currentPage == 3)

            await server.stop()
            let offline = Collection<Article>(url: "/drf/paged-articles", sync: cache)
            let pages = Paginator(offline, style: .djangoREST())
            try await pages.loadFirstPage()
            #expect(offline.pluck("title") == (1...7).map { .string("Article \($0)") })
            #expect(pages.totalCount == 7 && !pages.hasNextPage)
        }
    }
}
