import Keel
import KeelTestServer
import Testing

/// Relations against a writable nested serializer as Django REST framework's documentation
/// writes it: a team's members embedded in full, updated by id, created without one, and
/// deleted when left out.
@MainActor
struct DjangoRESTRelationsIntegrationTests {
    final class Member: Model {}

    final class Team: Model {
        static let members = HasMany<Member>("members")
        override class var urlRoot: String? { "/drf/teams" }
        override class var wireFormat: WireFormat { .djangoREST }
        override class var relations: [any Relation] { [members] }
    }

    @Test func membersAreEmbeddedMergedByIDAndKeptAsInstances() async throws {
        let team = Team(["name": "Engines", "members": [["email": "ada@example.com", "role": "lead"]]])
        team.sync = RESTSync(baseURL: try await TestServer.shared.baseURL)
        try await team.save()
        let members = team[Team.members]
        let ada = try #require(members.first)
        #expect(ada.id != nil)

        members.add(Member(["email": "charles@example.com"]))
        ada.set(["role": "founder"])
        try await team.save()
        #expect(members.length == 2)
        #expect(members.first === ada)

        members.remove(ada)
        try await team.save()
        let fetched = Team(["id": team.id ?? nil])
        fetched.sync = team.sync
        try await fetched.fetch()
        #expect(fetched[Team.members].pluck("email") == ["charles@example.com"])
        try await team.fetch()
        #expect(members.pluck("role") == [""])
    }

    @Test func nestedErrorsArriveAtTheirPaths() async throws {
        let team = Team(["name": "Engines", "members": [["email": "ada@example.com"], ["email": "not an email"]]])
        team.sync = RESTSync(baseURL: try await TestServer.shared.baseURL)
        await #expect(throws: SyncError.self) { try await team.save() }
        #expect(team.validationError?["members[1].email"] == ["Enter a valid email address."])
    }
}
