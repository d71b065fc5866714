import Keel
import Testing

/// A `.nestedAttributes` has-one that the app clears goes as its id and `_destroy`, so that
/// Rails' `allow_destroy` deletes it (NSRails' `remoteDestroyOnNesting` for a has-one).
@MainActor
struct ClearedHasOneTests {
    typealias Profile = NestedDestroyFixtures.Profile
    typealias Member = NestedDestroyFixtures.Member

    private func syncedMember() async throws -> Member {
        try await NestedDestroyFixtures.syncedMember()
    }

    @Test func aClearedHasOneIsSentAsItsIDAndDestroy() async throws {
        let member = try await syncedMember()
        member[Member.profile] = nil
        #expect(
            WireFormat.rails.encode(member, for: .patch)
                == ["member": ["profile_attributes": ["id": 3, "_destroy": true]]]
        )
        #expect(
            WireFormat.rails.encode(member, for: .update)?["member"]?["profile_attributes"]
                == ["id": 3, "_destroy": true]
        )
    }

    @Test func aReplacedHasOneSendsTheNewRecordAndPuttingTheOldBackSendsNoDestroy() async throws {
        let member = try await syncedMember()
        let old = try #require(member[Member.profile])
        member[Member.profile] = Profile(["bio": "Pilot"])
        #expect(WireFormat.rails.encode(member, for: .patch) == ["member": ["profile_attributes": ["bio": "Pilot"]]])
        member[Member.profile] = old
        #expect(WireFormat.rails.encode(member, for: .patch) == ["member": [:]])
    }

    @Test func aSyncForgetsTheClearedHasOne() async throws {
        let member = try await syncedMember()
        member[Member.profile] = nil
        member.sync = ScriptedSync(always: SyncResponse(body: ["member": ["id": 1, "profile": nil]]))
        try await member.save(patch: true)
        #expect(WireFormat.rails.encode(member, for: .patch) == ["member": [:]])
    }
}
