import Keel
import Testing

/// A child marked for destruction stays in its relation and goes as its id and `_destroy` in its
/// owner's next save (Rails' `mark_for_destruction`, NSRails' `remoteDestroyOnNesting`).
@MainActor
struct MarkForDestructionTests {
    typealias Invite = NestedDestroyFixtures.Invite
    typealias Member = NestedDestroyFixtures.Member

    private func syncedMember() async throws -> Member {
        try await NestedDestroyFixtures.syncedMember()
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
