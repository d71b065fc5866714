// MARK: - nested_merge

extension FloorTrials {
    /// The floor of `nested_merge`'s state.
    struct NestedMergeState {
        let json = usersJSON(count: 10_000, round: 2)
        let collection: PlainOwnerCollection
        let users: [PlainOwner]
        let invites: [PlainRecord]

        init() throws {
            let initial = try PlainJSONParser.parse(usersJSON(count: 10_000, round: 1))
            let rows = try unwrap(initial.arrayValue, "not an array").map { $0.objectValue ?? [:] }
            let collection = PlainOwnerCollection(key: "invites", rows)
            users = try [0, 4_321, 9_999].map { id in try unwrap(collection.get(id), "no user \(id)") }
            invites = try users.map { user in try unwrap(user.children.records.dropFirst(7).first, "no invite 7") }
            self.collection = collection
        }
    }

    /// The floor of `nested_merge`: the hand-written parser, then a merge by id into the
    /// owners and, inside each, into its child records.
    static func nestedMerge() -> Trial {
        Trial(
            setup: { try NestedMergeState() },
            body: { state in
                let response = try PlainJSONParser.parse(state.json)
                let rows = try unwrap(response.arrayValue, "not an array").map { $0.objectValue ?? [:] }
                state.collection.set(rows)
                return response
            },
            verify: { state in
                let collection = state.collection
                try expect(collection.owners.count == 10_000, "length \(collection.owners.count)")
                for (user, invite) in zip(state.users, state.invites) {
                    let id = user.id ?? -1
                    try expect(collection.get(id) === user, "user \(id) was replaced")
                    try expect(user.children.records[7] === invite, "invite 7 of user \(id) was replaced")
                    let email = PlainValue.string("invite\(inviteID(user: id, 7))-r2@example.com")
                    try expect(invite.attributes["email"] == email, "invite email")
                    let mirrored = user.record.attributes["invites"]?.arrayValue?[7].objectValue?["email"]
                    try expect(mirrored == email, "user \(id)'s invites attribute")
                }
                let users = collection.owners
                let invites = users.flatMap(\.children.records)
                try expect(invites.count == 100_000, "\(invites.count) invites")
                return (orderChecksum(users.map { $0.id ?? -1 }) + orderChecksum(invites.map { $0.id ?? -1 }))
                    % (1 << 32)
            }
        )
    }
}
