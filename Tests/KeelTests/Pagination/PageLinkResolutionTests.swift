import Foundation
import Keel
import Testing

/// The paginator resolves `Link` and `next` URLs against the URL of the page that sent them
/// (RFC 8288 §3.2, RFC 3986 §5), not against the backend's base URL, on a real listener.
@MainActor
struct PageLinkResolutionTests {
    /// A listener whose first page (`/api/items`) links its next page with `link`, and whose
    /// other pages have no next page.
    private func listener(linkingWith link: String) throws -> WireListener {
        try WireListener { request in
            guard request.target == "/api/items" else { return .json(#"[{"id": 2}]"#) }
            var reply = WireListener.Reply.json(#"[{"id": 1}]"#)
            reply.headers["Link"] = "<\(link)>; rel=\"next\""
            return reply
        }
    }

    @Test(arguments: ["/api/items?page=2", "?page=2", "./items?page=2", "items?page=2", "../api/items?page=2"])
    func aRelativeNextLinkResolvesAgainstThePage(link: String) async throws {
        let listener = try listener(linkingWith: link)
        defer { listener.stop() }
        let api = RESTSync(baseURL: listener.baseURL.appending(path: "api"))
        let items = Collection<Model>(url: "/items", sync: api)
        let pages = Paginator(items, style: .linkHeader)
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(listener.requests.map(\.target) == ["/api/items", "/api/items?page=2"])
        #expect(items.pluck("id") == [1, 2])
    }

    @Test func commasInsideALinkOrAQuotedParameterDoNotSplitIt() async throws {
        let listener = try WireListener { request in
            guard request.target == "/api/items" else { return .json(#"[{"id": 2}]"#) }
            var reply = WireListener.Reply.json(#"[{"id": 1}]"#)
            reply.headers["Link"] =
                #"<?page=9&fields=id,title>; rel="last"; title="9, the end", "#
                + #"<?page=2&fields=id,title>; title="next; then 3, 4"; rel="next""#
            return reply
        }
        defer { listener.stop() }
        let pages = Paginator(
            Collection<Model>(url: "/items", sync: RESTSync(baseURL: listener.baseURL.appending(path: "api"))),
            style: .linkHeader
        )
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(listener.requests.map(\.target) == ["/api/items", "/api/items?page=2&fields=id,title"])
    }

    @Test func anAbsoluteLinkToAnotherOriginGetsNoCredentials() async throws {
        let other = try WireListener { _ in .json(#"[{"id": 2}]"#) }
        defer { other.stop() }
        let listener = try listener(linkingWith: other.baseURL.appending(path: "items").absoluteString + "?page=2")
        defer { listener.stop() }
        let api = RESTSync(baseURL: listener.baseURL.appending(path: "api"), headers: ["Authorization": "Bearer t"])
        let pages = Paginator(Collection<Model>(url: "/items", sync: api), style: .linkHeader)
        while pages.hasNextPage { try await pages.loadNextPage() }
        #expect(listener.requests.first?.header("Authorization") == "Bearer t")
        #expect(other.requests.map(\.target) == ["/items?page=2"])
        #expect(other.requests.first?.header("Authorization") == nil)
    }

    @Test func aDjangoRESTNextLinkResolvesAgainstThePage() async throws {
        let listener = try WireListener { request in
            request.target == "/api/items/"
                ? .json(#"{"count": 2, "next": "?page=2", "previous": null, "results": [{"id": 1}]}"#)
                : .json(#"{"count": 2, "next": null, "previous": "./", "results": [{"id": 2}]}"#)
        }
        defer { listener.stop() }
        let api = RESTSync(baseURL: listener.baseURL.appending(path: "api"))
        let items = Collection<Model>(url: "/items", sync: api)
        items.wireFormat = .djangoREST
        let pages = Paginator(items, style: .djangoREST(), appends: false)
        try await pages.loadNextPage()
        try await pages.loadNextPage()
        try await pages.loadPreviousPage()
        #expect(listener.requests.map(\.target) == ["/api/items/", "/api/items/?page=2", "/api/items/"])
        #expect(items.pluck("id") == [1])
    }
}

/// A `next` link that leads back to a page already loaded ends the paging with
/// ``SyncError/pageUnavailable(_:reason:)`` instead of loading pages forever.
@MainActor
struct PageLinkLoopTests {
    @Test func aLinkHeaderLoopEndsWithAnError() async throws {
        let listener = try WireListener { request in
            var reply = WireListener.Reply.json(request.target == "/items" ? #"[{"id": 1}]"# : #"[{"id": 2}]"#)
            reply.headers["Link"] = request.target == "/items" ? "<?page=2>; rel=\"next\"" : "</items>; rel=\"next\""
            return reply
        }
        defer { listener.stop() }
        let items = Collection<Model>(url: "/items", sync: RESTSync(baseURL: listener.baseURL))
        let pages = Paginator(items, style: .linkHeader)
        let error = await #expect(throws: SyncError.self) {
            while pages.hasNextPage { try await pages.loadNextPage() }
        }
        guard case .pageUnavailable(3, let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.contains("leads back to page 1"))
        #expect(!pages.hasNextPage)
        #expect(listener.requests.map(\.target) == ["/items", "/items?page=2"])
        #expect(items.pluck("id") == [1, 2])
    }

    @Test func aDjangoRESTNextLinkToTheSamePageEndsWithAnError() async throws {
        let listener = try WireListener { request in
            let base = "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "")"
            return .json(#"{"count": 9, "next": "\#(base)/items/", "previous": null, "results": [{"id": 1}]}"#)
        }
        defer { listener.stop() }
        let items = Collection<Model>(url: "/items/", sync: RESTSync(baseURL: listener.baseURL))
        let pages = Paginator(items, style: .djangoREST())
        try await pages.loadFirstPage()
        await #expect(throws: SyncError.self) { _ = try await pages.loadNextPage() }
        #expect(!pages.hasNextPage)
        #expect(try await pages.loadNextPage().isEmpty)
        #expect(listener.requests.count == 1)
    }
}
