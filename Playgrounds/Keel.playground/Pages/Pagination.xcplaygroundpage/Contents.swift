//: # Pagination
//: A `Paginator` loads a collection page by page. It asks for each page as the server
//: expects, reads the records and the total, and knows whether there is a next page.
import Foundation
import Keel

final class Article: Model {
    override class var wireFormat: WireFormat { .djangoREST }
}
//: A server answering like Django REST framework's `PageNumberPagination`, 2 per page.
struct DjangoPages: Sync {
    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let page = Int(query.first { $0.name == "page" }?.value ?? "1") ?? 1
        let ids = Array((1...5).dropFirst((page - 1) * 2).prefix(2))
        return SyncResponse(body: [
            "count": 5,
            "next": page < 3 ? .string("http://127.0.0.1/articles/?page=\(page + 1)") : nil,
            "previous": page > 1 ? .string("http://127.0.0.1/articles/?page=\(page - 1)") : nil,
            "results": .array(ids.map { ["id": .int($0), "published_at": "2026-11-2\($0)T10:00:00Z"] }),
        ])
    }
}

let articles = Collection<Article>(url: "/articles", sync: DjangoPages())
var added = 0
articles.on("add") { _ in added += 1 }
let pages = Paginator(articles, style: .djangoREST())
try await pages.loadFirstPage()
precondition(articles.length == 2 && pages.totalCount == 5 && pages.hasNextPage)
//: The first page replaced the models (one `reset`); each next page is appended, with `add`
//: events. The records get the app's names.
while pages.hasNextPage { try await pages.loadNextPage() }
precondition(articles.pluck("id") == [1, 2, 3, 4, 5] && added == 3)
precondition(articles.get(5)?["publishedAt"] == "2026-11-25T10:00:00Z")
precondition(pages.currentPage == 3)
//: [Next](@next)
