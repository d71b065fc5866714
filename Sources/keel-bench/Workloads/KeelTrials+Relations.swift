import Keel

// MARK: - nested_merge

extension KeelTrials {
    /// `nested_merge`'s state: the JSON text of 10,000 users with their invites, and a
    /// collection already holding those users and invites from an initial load whose invite
    /// emails differ, with a sample of its instances to recognize afterwards.
    struct NestedMergeState {
        let json = usersJSON(count: 10_000, round: 2)
        let collection = Collection<BenchUser>((0..<10_000).map { userAttributes($0, round: 1) })
        let users: [BenchUser]
        let invites: [BenchInvite]

        init() throws {
            let collection = collection
            users = try [0, 4_321, 9_999].map { id in try unwrap(collection.get(.int(id)), "no user \(id)") }
            invites = try users.map { user in
                try unwrap(user[BenchUser.invites].at(7), "no invite 7 of user \(user.intID)")
            }
        }
    }

    /// `nested_merge`: parse the JSON text and `set(parsing:)` the collection with it, which
    /// merges each user by id and each user's invites by id into the same instances.
    static func nestedMerge() -> Trial {
        Trial(
            setup: { try NestedMergeState() },
            body: { state in
                let response = try JSONValue(parsing: state.json)
                return (response, try state.collection.set(parsing: response))
            },
            verify: { state in
                let collection = state.collection
                try expect(collection.length == 10_000, "length \(collection.length)")
                for (user, invite) in zip(state.users, state.invites) {
                    let id = user.id?.intValue ?? -1
                    try expect(collection.get(.int(id)) === user, "user \(id) was replaced")
                    try expect(user[BenchUser.invites].at(7) === invite, "invite 7 of user \(id) was replaced")
                    let email = JSONValue.string("invite\(inviteID(user: id, 7))-r2@example.com")
                    try expect(invite["email"] == email, "invite email \(String(describing: invite["email"]))")
                    try expect(user["invites"]?[7]?["email"] == email, "user \(id)'s invites attribute")
                }
                let users = collection.models
                let invites = users.flatMap { $0[BenchUser.invites].models }
                try expect(invites.count == 100_000, "\(invites.count) invites")
                return (orderChecksum(users.map(\.intID)) + orderChecksum(invites.map(\.intID))) % (1 << 32)
            }
        )
    }
}
