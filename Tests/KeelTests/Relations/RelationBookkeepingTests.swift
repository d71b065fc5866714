import Keel
import Testing

/// What Backbone-relational's and backbone-nested's users rely on, in Keel's form: the owner's
/// change bookkeeping, `unset` and `clear`, silent sets, and URLs that follow the owner's id.
@MainActor
struct RelationBookkeepingTests {
    typealias User = Relations.User
    typealias Invite = Relations.Invite

    @Test func previousAndChangedAttributesSeeNestedChanges() throws {
        let user = User(["id": 1, "invites": [["id": 1, "email": "a@x"]]])
        var previous: JSONValue?
        var changed: Attributes?
        user.on("change") { _ in
            previous = user.previous("invites")
            changed = user.changedAttributes()
        }
        user[User.invites].get(1)?.set(["email": "b@x"])
        #expect(previous == [["id": 1, "email": "a@x"]])
        #expect(changed == ["invites": [["id": 1, "email": "b@x"]]])
    }

    @Test func unsetAndClearEmptyTheRelation() {
        let user = User(["id": 1, "invites": [["id": 1, "email": "a@x"]], "profile": ["bio": "x"]])
        user.unset("invites")
        #expect(user[User.invites].isEmpty)
        #expect(!user.has("invites"))
        user.clear()
        #expect(user[User.profile] == nil)
        #expect(user.attributes.isEmpty)
    }

    @Test func aSilentSetMergesWithoutEvents() {
        let user = User(["id": 1, "invites": [["id": 1, "email": "a@x"]]])
        var events: [String] = []
        user.on("all") { event in events.append(event.name) }
        user[User.invites].on("all") { event in events.append("invites:" + event.name) }
        user.set(["invites": [["id": 1, "email": "b@x"], ["id": 2, "email": "c@x"]]], silent: true)
        #expect(events.isEmpty)
        #expect(user[User.invites].pluck("email") == ["b@x", "c@x"])
        #expect(user["invites"]?.arrayValue?.count == 2)
    }

    @Test func childURLsFollowTheOwnersID() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["id": 5]) }
        let user = User(["name": "Ada"])
        user.sync = backend
        #expect(user[User.invites].url == nil)
        try await user.save()
        #expect(user[User.invites].url == "/users/5/invites")
        user.set(["id": 6])
        #expect(user[User.invites].url == "/users/6/invites")
    }

    @Test func aSortOfTheChildrenReordersTheMirror() throws {
        let user = User(["id": 1, "invites": [["id": 2, "email": "b@x"], ["id": 1, "email": "a@x"]]])
        var changes = 0
        user.on("change:invites") { _ in changes += 1 }
        user[User.invites].comparator = .attribute("email")
        try user[User.invites].sort()
        #expect(changes == 1)
        #expect(user["invites"]?[0]?["email"] == "a@x")
    }

    @Test func aDestroyedChildIsNotSentAsDestroyedAndLeavesNothingToPatch() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 1]) }
        let user = User(["id": 1, "invites": [["id": 1, "email": "a@x"]]])
        user.sync = backend
        try await user.save()
        try await user[User.invites].get(1)?.destroy()
        #expect(user[User.invites].isEmpty)
        try await user.save(patch: true)
        #expect(backend.requests.map(\.method) == [.patch, .delete])
        #expect(user.unsavedChanges == nil)
    }

    @Test func aValueOfTheWrongShapeIsRejectedAndLosesNothing() {
        let user = User(["id": 1, "invites": [["id": 1, "email": "a@x"]], "profile": ["bio": "x"]])
        var invalid: [ValidationError] = []
        user.on("invalid") { event in if let error = event.validationError { invalid.append(error) } }
        #expect(!user.set(["invites": "none", "profile": 3], validate: false))
        #expect(user[User.invites].pluck("id") == [1])
        #expect(user["profile"] == ["bio": "x"])
        #expect(invalid.first?["invites"] == ["must be a list of records"])
        #expect(invalid.first?["profile"] == ["must be a record"])
    }
}
