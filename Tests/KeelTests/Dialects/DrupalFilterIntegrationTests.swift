import Foundation
import Keel
import KeelTestServer
import Testing

/// ``DrupalFilter`` against the test server's emulation of Drupal 10's JSON:API module, which
/// reads `filter[…]` as Drupal's FilterParser does: the shorthand, the long form with every
/// operator, groups and `memberOf`, from a fetch, a ``Paginator`` and a store query.
@MainActor
struct DrupalFilterIntegrationTests {
    /// An article with app names of its own: `nid` is Drupal's `drupal_internal__nid`,
    /// `isPublished` its `status`.
    final class Node: Model {
        override class var urlRoot: String? { "/jsonapi/node/article" }
        override class var wireFormat: WireFormat {
            .drupalJSONAPI(type: "node--article", keys: KeyMapping(names: ["nid": "drupal_internal__nid", "isPublished": "status"]))
        }
    }

    private func session() async throws -> DrupalSession {
        let server = try await TestServer.dedicated(to: "drupal-filters")
        let drupal = DrupalSession(RESTSync(baseURL: server.baseURL))
        try await drupal.login(name: "admin", password: "admin")
        return drupal
    }

    /// Articles titled `<marker> <name>` with the given attributes, created in order.
    private func seed(_ drupal: DrupalSession, marker: String, _ records: [(String, Attributes)]) async throws -> [Node] {
        var nodes: [Node] = []
        for (name, attributes) in records {
            let node = Node(attributes.merging(["title": .string("\(marker) \(name)")]))
            node.sync = drupal
            try await node.save()
            nodes.append(node)
        }
        return nodes
    }

    private func titles(_ drupal: DrupalSession, _ filter: DrupalFilter) async throws -> [String] {
        let nodes = Collection<Node>(url: "/jsonapi/node/article", sync: drupal)
        var options = SyncOptions()
        options.resources.filter = filter
        try await nodes.fetch(options: options)
        return nodes.compactMap { $0["title"]?.stringValue?.split(separator: " ").last.map(String.init) }
    }

    @Test func everyOperatorSelectsWhatDrupalWould() async throws {
        let drupal = try await session()
        let marker = "Ops-\(UUID().uuidString.prefix(8))"
        let nodes = try await seed(
            drupal,
            marker: marker,
            [
                ("alpha", ["sticky": true]), ("beta", ["isPublished": false]),
                ("gamma", ["body": ["value": "<p>G</p>", "format": "basic_html"]]), ("delta", [:]),
            ]
        )
        let nids = nodes.compactMap { $0["nid"]?.intValue }
        try #require(nids.count == 4)
        let mine = DrupalFilter.Member.condition("title", .startsWith(marker))

        #expect(try await titles(drupal, [mine, .condition("sticky", .equal(true))]) == ["alpha"])
        #expect(try await titles(drupal, [mine, .condition("isPublished", .notEqual(true))]) == ["beta"])
        #expect(try await titles(drupal, [mine, .condition("nid", .greaterThan(.int(nids[2])))]) == ["delta"])
        #expect(try await titles(drupal, [mine, .condition("nid", .greaterThanOrEqual(.int(nids[2])))]) == ["gamma", "delta"])
        #expect(try await titles(drupal, [mine, .condition("nid", .lessThan(.int(nids[1])))]) == ["alpha"])
        #expect(try await titles(drupal, [mine, .condition("nid", .lessThanOrEqual(.int(nids[1])))]) == ["alpha", "beta"])
        #expect(try await titles(drupal, [.condition("title", .contains("\(marker.lowercased()) GAM"))]) == ["gamma"])
        #expect(try await titles(drupal, [mine, .condition("title", .endsWith("ta"))]) == ["beta", "delta"])
        let alphaAndDelta: [JSONValue] = [.string("\(marker) alpha"), .string("\(marker) delta")]
        #expect(try await titles(drupal, [.condition("title", .isIn(alphaAndDelta))]) == ["alpha", "delta"])
        #expect(try await titles(drupal, [mine, .condition("title", .isNotIn(alphaAndDelta))]) == ["beta", "gamma"])
        #expect(try await titles(drupal, [mine, .condition("nid", .between(.int(nids[1]), .int(nids[2])))]) == ["beta", "gamma"])
        #expect(try await titles(drupal, [mine, .condition("body", .isNotNull)]) == ["gamma"])
        #expect(try await titles(drupal, [mine, .condition("body", .isNull)]) == ["alpha", "beta", "delta"])
        #expect(try await titles(drupal, [mine, .condition("body", .equal(.null))]) == ["alpha", "beta", "delta"])
        #expect(try await titles(drupal, [mine, .condition("uid.name", .equal("admin"))]).count == 4)
    }

    @Test func groupsNestWithTheirConjunctions() async throws {
        let drupal = try await session()
        let marker = "Groups-\(UUID().uuidString.prefix(8))"
        _ = try await seed(
            drupal,
            marker: marker,
            [("one", ["sticky": true]), ("two", ["isPublished": false]), ("three", ["sticky": true, "isPublished": false]), ("four", [:])]
        )
        let eitherFlag: DrupalFilter = [
            .condition("title", .startsWith(marker)),
            .any([.condition("sticky", .equal(true)), .condition("isPublished", .equal(false))]),
        ]
        #expect(try await titles(drupal, eitherFlag) == ["one", "two", "three"])

        let nested: DrupalFilter = [
            .condition("title", .startsWith(marker)),
            .any([
                .all([.condition("sticky", .equal(true)), .condition("isPublished", .equal(false))]),
                .condition("title", .endsWith("four")),
            ]),
        ]
        #expect(try await titles(drupal, nested) == ["three", "four"])
    }

    @Test func valuesWithReservedCharactersArriveEncodedOnce() async throws {
        let drupal = try await session()
        let marker = "Chars-\(UUID().uuidString.prefix(8))"
        let odd = "a&b=c+d [e] 100% é/?#"
        _ = try await seed(drupal, marker: marker, [(odd, [:]), ("plain", [:])])

        let nodes = Collection<Node>(url: "/jsonapi/node/article", sync: drupal)
        var options = SyncOptions()
        options.resources.filter = [.condition("title", .equal(.string("\(marker) \(odd)")))]
        try await nodes.fetch(options: options)
        #expect(nodes.pluck("title") == [.string("\(marker) \(odd)")])

        options.resources.filter = [.condition("title", .contains("[e] 100%")), .condition("title", .startsWith(marker))]
        try await nodes.fetch(options: options)
        #expect(nodes.pluck("title") == [.string("\(marker) \(odd)")])
    }

    @Test func aPaginatorKeepsTheFilterOnEveryPage() async throws {
        let drupal = try await session()
        let marker = "Paged-filter-\(UUID().uuidString.prefix(8))"
        _ = try await seed(drupal, marker: marker, (1...5).map { ("n\($0)", [:]) } + [("off", ["sticky": true])])
        let nodes = Collection<Node>(url: "/jsonapi/node/article", sync: drupal)
        let filter: DrupalFilter = [.condition("title", .startsWith(marker)), .condition("sticky", .notEqual(true))]
        let pages = Paginator(nodes, style: .jsonAPIOffset(), pageSize: 2, resources: ResourceSelection(filter: filter))
        try await pages.loadFirstPage()
        var loaded = 1
        while pages.hasNextPage {
            try await pages.loadNextPage()
            loaded += 1
        }
        #expect(loaded == 3)
        #expect(nodes.pluck("title") == (1...5).map { .string("\(marker) n\($0)") })
    }

    @Test func aStoreQueryLoadsWithItsFilter() async throws {
        let drupal = try await session()
        let marker = "Query-\(UUID().uuidString.prefix(8))"
        _ = try await seed(drupal, marker: marker, [("kept", ["sticky": true]), ("left", [:])])
        let store = Store(sync: drupal)
        let filter: DrupalFilter = [.condition("title", .startsWith(marker)), .condition("sticky", .equal(true))]
        let sticky = store.query(Node.self, resources: ResourceSelection(filter: filter))
        try await sticky.load()
        #expect(sticky.models.map { $0["title"] } == [.string("\(marker) kept")])
        #expect(store.models(Node.self).count == 1)
    }

    @Test func anOperatorDrupalRefusesIsA400() async throws {
        let drupal = try await session()
        let nodes = Collection<Node>(url: "/jsonapi/node/article?filter[x][condition][path]=title&filter[x][condition][operator]=LIKE&filter[x][condition][value]=a", sync: drupal)
        let error = await #expect(throws: SyncError.self) { _ = try await nodes.fetch() }
        #expect(error?.status == 400)
    }
}
