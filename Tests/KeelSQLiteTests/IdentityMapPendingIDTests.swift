import Keel
import Testing

/// A model the identity map is building is registered under the id its `parse` gives it
/// before it builds its related records: the key its build was asked for when that id is the
/// record's (compared by its bits first, then by value), another key for another id, and no
/// key for a `null` id.
@MainActor
struct IdentityMapPendingIDTests {
    /// A member of a team that links back to the member being built.
    final class Member: Model {
        static let team = BelongsTo<Team>("team", foreignKey: "teamId")
        override class var urlRoot: String? { "/members" }
        override class var relations: [any Relation] { [team] }
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            guard var attributes = response.objectValue else { return nil }
            switch attributes["rewrite"]?.stringValue {
            // The same id, as text: a value equal to the record's, with other bits.
            case "text": attributes["id"] = attributes["id"]?.intValue.map { .string(String($0)) }
            case "null": attributes["id"] = .null
            default: break
            }
            return attributes
        }
    }

    /// A team whose captain is a member.
    final class Team: Model {
        static let captain = BelongsTo<Member>("captain", foreignKey: "captainId")
        override class var urlRoot: String? { "/teams" }
        override class var relations: [any Relation] { [captain] }
    }

    private func member(_ map: IdentityMap, rewrite: String) -> Member {
        map.model(
            Member.self,
            collection: "/members",
            attributes: [
                "id": 5, "rewrite": .string(rewrite), "teamId": 9,
                "team": ["id": 9, "captainId": 5, "captain": ["id": 5]],
            ],
            options: ChangeOptions(parse: true)
        )
    }

    @Test(arguments: ["none", "text"])
    func anIDEqualToTheRecordsRegistersTheModelBeforeItsRelationsBuild(rewrite: String) throws {
        let map = IdentityMap()
        let member = member(map, rewrite: rewrite)
        let team = try #require(member[Member.team])

        #expect(map.existing(Member.self, id: 5, in: "/members") === member)
        // The captain's record links back to the member being built: the same instance.
        #expect(team[Team.captain] === member)
        #expect(map.count == 2)
    }

    @Test func aNullIDLeavesTheModelOutOfTheMap() throws {
        let map = IdentityMap()
        let member = member(map, rewrite: "null")
        let team = try #require(member[Member.team])

        #expect(member.isNew)
        #expect(map.existing(Member.self, id: 5, in: "/members") !== member)
        #expect(team[Team.captain] !== member)
    }
}
