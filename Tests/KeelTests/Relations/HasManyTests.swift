import Foundation
import Keel
import Observation
import Testing

/// A has-many relation is a live collection: merged by id, its changes bubble to the owner,
/// and Rails' nested attributes carry exactly the new, changed and removed children.
@MainActor
struct HasManyTests {
    typealias User = Relations.User
    typealias Invite = Relations.Invite

    private func makeUser() -> User {
        User(["id": 1, "name": "Ada", "invites": [["id": 1, "email": "a@x"], ["id": 2, "email": "b@x"]]])
    }

    @Test func theRelationIsALiveTypedCollectionMirroredByTheAttribute() {
        let user = makeUser()
        let invites: Collection<Invite> = user[User.invites]
        #expect(invites === user[User.invites])
        #expect(invites.pluck("email") == ["a@x", "b@x"])
        #expect(user["invites"] == [["id": 1, "email": "a@x"], ["id": 2, "email": "b@x"]])
    }

    @Test func settingTheAttributeMergesByIDKeepingTheInstances() {
        let user = makeUser()
        let first = user[User.invites].get(1)
        var events: [String] = []
        first?.on("change:email") { _ in events.append("invite change:email") }
        user.on("change:invites") { _ in events.append("user change:invites") }
        user.on("change") { _ in events.append("user change") }
        user.set(["invites": [["id": 1, "email": "A@x"], ["id": 3, "email": "c@x"]]])
        #expect(user[User.invites].get(1) === first)
        #expect(user[User.invites].pluck("id") == [1, 3])
        #expect(events == ["invite change:email", "user change:invites", "user change"])
        #expect(user["invites"] == [["id": 1, "email": "A@x"], ["id": 3, "email": "c@x"]])
    }

    @Test func theAttributeMirrorsTheChildrenInOrderAndAnEmptyRelationAsAnEmptyArray() {
        let user = makeUser()
        user.set(["invites": [["id": 2, "email": "b@x"], ["id": 1, "email": "a@x"], ["id": 4]]])
        #expect(user["invites"] == [["id": 2, "email": "b@x"], ["id": 1, "email": "a@x"], ["id": 4]])
        user.set(["invites": []])
        #expect(user[User.invites].length == 0)
        #expect(user["invites"] == [])
    }

    @Test func aChildsChangeBubblesWithTheChildAndItsPath() throws {
        let user = makeUser()
        let second = try #require(user[User.invites].get(2))
        var events: [String] = []
        second.on("change") { _ in events.append("invite change") }
        user.on("change:invites") { event in
            events.append("user change:invites \(event.nestedPath ?? "") \(event.nestedModel === second)")
        }
        user.on("change") { _ in events.append("user change") }
        second.set(["email": "B@x"])
        #expect(events == ["invite change", "user change:invites invites[1] true", "user change"])
        #expect(user.hasChanged("invites"))
        #expect(user["invites"]?[1]?["email"] == "B@x")
    }

    @Test func addingAndRemovingChildrenChangeTheOwner() {
        let user = makeUser()
        var changes = 0
        user.on("change:invites") { _ in changes += 1 }
        user[User.invites].add(Invite(["email": "c@x"]))
        user[User.invites].remove(1)
        #expect(changes == 2)
        #expect(user["invites"] == [["id": 2, "email": "b@x"], ["email": "c@x"]])
    }

    @Test func observationSeesChildrenAddedThroughTheOwnersAttribute() {
        let user = makeUser()
        let changed = Lock(false)
        withObservationTracking {
            _ = user["invites"]
        } onChange: {
            changed.withLock { $0 = true }
        }
        user[User.invites].add(Invite(["email": "c@x"]))
        #expect(changed.withLock { $0 })
    }

    @Test func railsNestedAttributesCarryNewChangedAndDestroyedChildrenOnly() async throws {
        let backend = ScriptedSync { _ in
            SyncResponse(body: [
                "id": 1, "name": "Ada",
                "invites": [["id": 2, "email": "B@x"], ["id": 4, "email": "d@x"]],
            ])
        }
        let user = makeUser()
        user.sync = backend
        user.markAsFetched()
        user[User.invites].get(2)?.set(["email": "B@x"])
        let added = Invite(["email": "d@x"])
        user[User.invites].add(added)
        user[User.invites].remove(1)
        try await user.save()
        #expect(backend.requests.first?.method == .patch)
        #expect(
            backend.requests.first?.body == [
                "user": [
                    "name": "Ada",
                    "invites_attributes": [["email": "B@x", "id": 2], ["email": "d@x"], ["id": 1, "_destroy": true]],
                ]
            ]
        )
        #expect(added.id == 4)
        #expect(user[User.invites].get(4) === added)
        #expect(user.unsavedChanges == nil)

        try await user.save(patch: true)
        #expect(backend.requests.count == 1)
    }

    @Test func aPatchSendsOnlyTheChangedChildren() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 1]) }
        let user = makeUser()
        user.sync = backend
        user.markAsFetched()
        user[User.invites].get(1)?.set(["email": "A@x"])
        try await user.save(patch: true)
        #expect(backend.requests.first?.body == ["user": ["invites_attributes": [["email": "A@x", "id": 1]]]])
    }

    @Test func childrenLiveUnderTheOwnersURLAndBackend() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 7, "email": "saved@x"]) }
        let user = makeUser()
        user.sync = backend
        let invites = user[User.invites]
        #expect(invites.url == "/users/1/invites")
        let invite = try #require(invites.get(2))
        #expect(try invite.url() == "/users/1/invites/2")
        try await invite.save()
        #expect(backend.requests.first?.url.absoluteString == "/users/1/invites/2")
        #expect(User([:])[User.invites].url == nil)
    }

    @Test func theOwnerAndItsCollectionAreReleasedTogether() {
        weak var weakUser: User?
        weak var weakInvites: Collection<Invite>?
        weak var weakInvite: Model?
        do {
            let user = makeUser()
            weakUser = user
            weakInvites = user[User.invites]
            weakInvite = user[User.invites].first
            user[User.invites].first?.set(["email": "z@x"])
        }
        #expect(weakUser == nil)
        #expect(weakInvites == nil)
        #expect(weakInvite == nil)
    }
}

extension Model {
    /// Marks the model as just fetched, as a successful fetch would.
    func markAsFetched() { markSynced() }
}

/// Owners created by a collection give their children their own collection.
@MainActor
struct HasManyInCollectionTests {
    @Test func childrenOfOwnersInACollectionBelongToTheirOwnersCollection() throws {
        let users = Collection<Relations.User>(url: "/users")
        users.set([["id": 1, "invites": [["id": 7, "email": "a@x"]]]])
        users.set([["id": 1, "invites": [["id": 7, "email": "b@x"], ["id": 8, "email": "c@x"]]]])
        let user = try #require(users.get(1))
        let invites = user[Relations.User.invites]
        #expect(invites.models.allSatisfy { $0.collection === invites })
        #expect(try invites.get(8)?.url() == "/users/1/invites/8")
    }
}
