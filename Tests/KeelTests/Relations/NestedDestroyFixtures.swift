import Keel

/// The Rails-format member with a nested has-one profile and nested to-many invites that
/// ``ClearedHasOneTests`` and ``MarkForDestructionTests`` send.
enum NestedDestroyFixtures {
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
    @MainActor
    static func syncedMember() async throws -> Member {
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
}
