// MARK: - nested_merge

extension FloorTrials {
    /// The floor of `nested_merge`'s state: users of `id`, `name`, `email` and `invites`
    /// by slot, whose invites are slot records of `id`, `email` and `accepted`.
    struct NestedMergeState {
        static let invites = 3
        static let email = 1
        static let layout = SlotLayout(
            ["id", "name", "email", "invites"],
            rows: ["invites": SlotLayout(["id", "email", "accepted"])]
        )
        let json = usersJSON(count: 10_000, round: 2)
        let collection: SlotOwnerCollection
        let users: [SlotOwner]
        let invites: [SlotRecord]

        init() throws {
            let rows = try PlainJSONParser.parseRows(usersJSON(count: 10_000, round: 1), layout: Self.layout)
            let collection = SlotOwnerCollection(childrenSlot: Self.invites, rows)
            users = try [0, 4_321, 9_999].map { id in try unwrap(collection.get(id), "no user \(id)") }
            invites = try users.map { user in try unwrap(user.children.records.dropFirst(7).first, "no invite 7") }
            self.collection = collection
        }
    }

    /// The floor of `nested_merge`: the hand-written parser, reading users and their invites
    /// straight into values by slot, then a merge by id and by slot into the owners and,
    /// inside each, into its child records.
    static func nestedMerge() -> Trial {
        Trial(
            setup: { try NestedMergeState() },
            body: { state in
                let rows = try PlainJSONParser.parseRows(state.json, layout: NestedMergeState.layout)
                state.collection.set(rows)
                return rows
            },
            verify: verifyNestedMerge
        )
    }

    /// The check of `nested_merge`'s floors: the same users and invites, merged in place.
    static func verifyNestedMerge(_ state: NestedMergeState) throws -> Int {
        let collection = state.collection
        try expect(collection.owners.count == 10_000, "length \(collection.owners.count)")
        for (user, invite) in zip(state.users, state.invites) {
            let id = user.id ?? -1
            try expect(collection.get(id) === user, "user \(id) was replaced")
            try expect(user.children.records[7] === invite, "invite 7 of user \(id) was replaced")
            let email = PlainValue.string("invite\(inviteID(user: id, 7))-r2@example.com")
            try expect(invite.values[NestedMergeState.email] == email, "invite email")
            let mirrored = user.record.values[NestedMergeState.invites].arrayValue?[7].arrayValue?[
                NestedMergeState.email
            ]
            try expect(mirrored == email, "user \(id)'s invites attribute")
        }
        let users = collection.owners
        let invites = users.flatMap(\.children.records)
        try expect(invites.count == 100_000, "\(invites.count) invites")
        let inviteIDs = invites.map { $0.int(at: SlotCollection.idSlot) ?? -1 }
        return (orderChecksum(users.map { $0.id ?? -1 }) + orderChecksum(inviteIDs))
            % (1 << 32)
    }
}
