import Testing

@testable import Keel

/// An identity map keeps numbers only for the collection paths of its live records: a map
/// that met a nested collection per user does not grow with every path it ever saw, and a
/// live record stays found while numbers are released and given again.
struct IdentityMapPathsTests {
    final class Invite: Model {}

    @Test func thePathsOfReleasedRecordsAreReleased() throws {
        let map = IdentityMap()
        let kept = (1...20).map {
            map.factory(for: Invite.self, collection: "/kept/\($0)/invites")(["id": 1], ChangeOptions())
        }
        for user in 1...2_000 {
            _ = map.factory(for: Invite.self, collection: "/users/\(user)/invites")(["id": 1], ChangeOptions())
        }
        #expect(map.numberedPathCount < 200)
        for (index, invite) in kept.enumerated() {
            #expect(map.existing(Invite.self, id: 1, in: "/kept/\(index + 1)/invites") === invite)
        }
        let again = map.factory(for: Invite.self, collection: "/kept/3/invites")(
            ["id": 1, "note": "x"],
            ChangeOptions()
        )
        #expect(again === kept[2])
        #expect(map.existing(Invite.self, id: 1, in: "/users/5/invites") == nil)
    }

    @Test func aModelUnderANumberGivenAgainFollowsItsOwnPath() {
        let map = IdentityMap()
        // Each of these records is released at once, so its path's number is released and
        // given to a later path.
        for user in 1...200 {
            _ = map.factory(for: Invite.self, collection: "/users/\(user)/invites")(["id": 1], ChangeOptions())
        }
        let invites = (1...50).map {
            map.factory(for: Invite.self, collection: "/teams/\($0)/invites")(["id": 1], ChangeOptions())
        }
        #expect(map.numberedPathCount < 200)
        for (index, invite) in invites.enumerated() {
            invite.set(["id": 2])
            #expect(map.existing(Invite.self, id: 2, in: "/teams/\(index + 1)/invites") === invite)
            #expect(map.existing(Invite.self, id: 1, in: "/teams/\(index + 1)/invites") == nil)
        }
    }

    @Test func modelsOfOneCollectionWrittenTwoWaysFollowTheirIDs() {
        let map = IdentityMap()
        let first = map.factory(for: Invite.self, collection: "/invites")(["id": 1], ChangeOptions())
        let second = map.factory(for: Invite.self, collection: "invites/")(["id": 2], ChangeOptions())
        second.set(["id": 3])
        first.set(["id": 4])
        #expect(map.existing(Invite.self, id: 3, in: "/invites") === second)
        #expect(map.existing(Invite.self, id: 4, in: "invites/") === first)
        #expect(map.existing(Invite.self, id: 1, in: "/invites") == nil)
        #expect(map.existing(Invite.self, id: 2, in: "/invites") == nil)
        second.trigger(Event(name: "destroy", model: second))
        #expect(map.existing(Invite.self, id: 3, in: "/invites") == nil)
        #expect(map.count == 1)
    }
}
