import Keel
import Testing

/// A child marked for destruction stays in its relation and goes as its id and `_destroy` in its
/// owner's next save (Rails' `mark_for_destruction`, NSRails' `remoteDestroyOnNesting`).
@MainActor
struct MarkForDestructionTests {
    final class Profile: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Invite: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Member: Model {
        static let profile = HasOne<Profile>("profile", encoding: .nestedAttributes)
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
        override class var urlRoot: String? { "/members" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [profile, invites] }
    }

    /// A member as the server has it: profile 3, invites 7 and 8.
    private func syncedMember() async throws -> Member {
        let member = Member(["id": 1])
        member.sync = ScriptedSync(
            always: SyncResponse(
                body: [
                    "member": [
                        "id": 1, "name": "Ada", "profile": ["id": 3, "bio": "Engineer"],
                        "invites": [["id": 7, "email": "a@x"], ["id": 8, "email": "b@x"]],
                    ]
                ]
            )
        )
        try await member.fetch()
        return member
    }

    @Test func aMarkedChildStaysInTheRelationAndIsSentAsDestroy() async throws {
        let member = try await syncedMember()
        let invites = member[Member.invites]
        invites.get(7)?.markForDestruction()
        #expect(invites.get(7)?.isMarkedForDestruction == true)
        #expect(invites.count == 2)
        #expect(
            WireFormat.rails.encode(member, for: .patch)
                == ["member": ["invites_attributes": [["id": 7, "_destroy": true]]]]
        )
    }

    @Test func aMarkedHasOneIsSentAsDestroy() async throws {
        let member = try await syncedMember()
        member[Member.profile]?.markForDestruction()
        #expect(
            WireFormat.rails.encode(member, for: .patch)
                == ["member": ["profile_attributes": ["id": 3, "_destroy": true]]]
        )
    }

    @Test func aMarkedNewChildIsNotSent() async throws {
        let member = try await syncedMember()
        let draft = Invite(["email": "new@x"])
        member[Member.invites].add(draft)
        draft.markForDestruction()
        #expect(WireFormat.rails.encode(member, for: .patch) == ["member": [:]])
    }

    @Test func aSuccessfulSaveClearsTheMarkOfAChildTheServerKept() async throws {
        let member = try await syncedMember()
        let invite = try #require(member[Member.invites].get(8))
        invite.markForDestruction()
        let kept: JSONValue = [["id": 7, "email": "a@x"], ["id": 8, "email": "b@x"]]
        member.sync = ScriptedSync(always: SyncResponse(body: ["member": ["id": 1, "invites": kept]]))
        try await member.save(patch: true)
        #expect(!invite.isMarkedForDestruction)
        #expect(member[Member.invites].pluck("id") == [7, 8])
    }
}
