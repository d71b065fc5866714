import Keel
import Testing

/// A `.nestedAttributes` has-one that the app clears goes as its id and `_destroy`, so that
/// Rails' `allow_destroy` deletes it (NSRails' `remoteDestroyOnNesting` for a has-one).
@MainActor
struct ClearedHasOneTests {
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
