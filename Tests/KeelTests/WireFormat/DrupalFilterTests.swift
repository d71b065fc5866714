import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The query parameters a ``DrupalFilter`` becomes: Drupal's shorthand for top-level
/// equalities, the long form for the rest, groups tied by `memberOf`, app names mapped.
@MainActor
struct DrupalFilterTests {
    private let site = URL(string: "https://drupal.test")!

    final class Node: Model {
        override class var urlRoot: String? { "/jsonapi/node/article" }
        override class var wireFormat: WireFormat {
            .drupalJSONAPI(type: "node--article", keys: KeyMapping(names: ["nid": "drupal_internal__nid", "author": "uid"]))
        }
    }

    private func query(_ filter: DrupalFilter) async throws -> [String] {
        let sync = ScriptedSync(always: SyncResponse(body: ["data": []]))
        let nodes = Collection<Node>(url: "/jsonapi/node/article", sync: sync)
        var options = SyncOptions()
        options.resources.filter = filter
        try await nodes.fetch(options: options)
        return sync.requests.last?.query.map { "\($0.name)=\($0.value ?? "")" } ?? []
    }

    @Test func topLevelEqualitiesUseTheShorthandWithWireNames() async throws {
        #expect(try await query([.condition("nid", .equal(7)), .condition("status", .equal(true))]) == [
            "filter[drupal_internal__nid]=7", "filter[status]=1",
        ])
    }

    @Test func otherConditionsUseTheLongFormWithTheirValues() async throws {
        let items = try await query([
            .condition("author.name", .startsWith("ad")),
            .condition("nid", .isIn([1, 2])),
            .condition("nid", .between(3, 9)),
            .condition("body", .isNull),
            .condition("status", .equal(false)),
            .condition("status", .equal(true)),
        ])
        #expect(items == [
            "filter[c1][condition][path]=uid.name", "filter[c1][condition][operator]=STARTS_WITH",
            "filter[c1][condition][value]=ad",
            "filter[c2][condition][path]=drupal_internal__nid", "filter[c2][condition][operator]=IN",
            "filter[c2][condition][value][]=1", "filter[c2][condition][value][]=2",
            "filter[c3][condition][path]=drupal_internal__nid", "filter[c3][condition][operator]=BETWEEN",
            "filter[c3][condition][value][]=3", "filter[c3][condition][value][]=9",
            "filter[c4][condition][path]=body", "filter[c4][condition][operator]=IS NULL",
            "filter[status]=0",
            "filter[c5][condition][path]=status", "filter[c5][condition][operator]==",
            "filter[c5][condition][value]=1",
        ])
    }

    @Test func groupsNameTheirMembersAndTheirParent() async throws {
        let items = try await query([
            .any([.condition("sticky", .equal(true)), .all([.condition("promote", .notEqual(false))])])
        ])
        #expect(items == [
            "filter[g1][group][conjunction]=OR",
            "filter[c1][condition][path]=sticky", "filter[c1][condition][operator]==",
            "filter[c1][condition][value]=1", "filter[c1][condition][memberOf]=g1",
            "filter[g2][group][conjunction]=AND", "filter[g2][group][memberOf]=g1",
            "filter[c2][condition][path]=promote", "filter[c2][condition][operator]=<>",
            "filter[c2][condition][value]=0", "filter[c2][condition][memberOf]=g2",
        ])
    }

    @Test func everyOperatorHasDrupalsSpelling() {
        let conditions: [DrupalFilter.Condition] = [
            .equal(1), .notEqual(1), .greaterThan(1), .greaterThanOrEqual(1), .lessThan(1), .lessThanOrEqual(1),
            .startsWith("a"), .contains("a"), .endsWith("a"), .isIn([1]), .isNotIn([1]), .between(1, 2), .isNull,
            .isNotNull,
        ]
        #expect(conditions.map(\.drupalOperator) == [
            "=", "<>", ">", ">=", "<", "<=", "STARTS_WITH", "CONTAINS", "ENDS_WITH", "IN", "NOT IN", "BETWEEN",
            "IS NULL", "IS NOT NULL",
        ])
    }

    @Test func theURLCarriesEachBracketEncodedOnce() async throws {
        let transport = RecordingTransport()
        transport.enqueue(.json(#"{"data": []}"#))
        let sync = RESTSync(baseURL: site, transport: transport)
        let nodes = Collection<Node>(url: "/jsonapi/node/article", sync: sync)
        var options = SyncOptions()
        options.resources.filter = [.condition("title", .contains("50% [off]"))]
        try await nodes.fetch(options: options)
        let url = try #require(transport.lastRequest?.url)
        #expect(url.query(percentEncoded: true) == "filter%5Bc1%5D%5Bcondition%5D%5Bpath%5D=title"
            + "&filter%5Bc1%5D%5Bcondition%5D%5Boperator%5D=CONTAINS"
            + "&filter%5Bc1%5D%5Bcondition%5D%5Bvalue%5D=50%25%20%5Boff%5D")
    }
}
