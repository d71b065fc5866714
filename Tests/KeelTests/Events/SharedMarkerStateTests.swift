import Testing

@testable import Keel

/// The models a map built that owners embed (the authors of posts) share one handler state, the
/// map's followers and the owners' marker, instead of copying their state to add the marker; each
/// keeps its owners' links in its storage, and a model copies the state, links included, before
/// anything changes its handlers, so each behaves as if it had a state of its own.
@MainActor
struct SharedMarkerStateTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var relations: [any Relation] { [author] }
    }

    private func post(_ id: Int, author: Int, in map: IdentityMap) -> Post {
        map.model(
            Post.self,
            collection: "/posts",
            attributes: ["id": .int(id), "authorId": .int(author), "author": ["id": .int(author), "name": "Ada"]]
        )
    }

    private func isMarked(_ model: Model) -> Bool {
        if case .marked = model.emitterStorage { return true }
        return false
    }

    @Test func embeddedModelsAMapBuiltShareOneStateWithTheOwnersMarker() throws {
        let map = IdentityMap()
        let lone = map.model(Author.self, collection: "/authors", attributes: ["id": 9])
        let first = post(1, author: 5, in: map)
        let second = post(2, author: 6, in: map)
        let ada = try #require(first[Post.author])
        let grace = try #require(second[Post.author])
        let shared = try #require(ada.existingState)

        #expect(isMarked(ada) && isMarked(grace))
        #expect(shared === grace.existingState)
        #expect(shared.isShared && shared.markedLinks == nil)
        #expect(shared.sharing?.base === lone.existingState)
        #expect(ada.handlerCount == lone.handlerCount + 1)
        #expect(!ada.hasNoHandlers(named: "change"))

        ada.set(["name": "Ann"])
        #expect(first["author"] == ["id": 5, "name": "Ann"])
        #expect(second["author"] == ["id": 6, "name": "Ada"])
    }

    @Test func aSecondOwnerJoinsTheLinksOfTheSharedModelInOrder() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let author = try #require(first[Post.author])
        let second = post(2, author: 5, in: map)
        var heard: [Int] = []
        first.on("change:author") { _ in heard.append(1) }
        second.on("change:author") { _ in heard.append(2) }

        author.set(["name": "Grace"])

        #expect(second[Post.author] === author)
        #expect(isMarked(author))
        #expect(heard == [1, 2])
        #expect(second["author"] == ["id": 5, "name": "Grace"])
    }

    @Test func aHandlerAddedToASharingModelCopiesTheStateAndKeepsItsOwners() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let second = post(2, author: 6, in: map)
        let ada = try #require(first[Post.author])
        let grace = try #require(second[Post.author])
        var seen: [JSONValue?] = []
        ada.on("change") { _ in seen.append(first["author"]) }

        ada.set(["name": "Ann"])
        grace.set(["name": "Gail"])

        // The marker was registered before the app's handler: the owner hears first.
        #expect(seen == [["id": 5, "name": "Ann"]])
        #expect(!isMarked(ada) && ada.existingState?.isShared == false)
        #expect(ada.existingState?.markedLinks != nil)
        #expect(isMarked(grace))
        #expect(second["author"] == ["id": 6, "name": "Gail"])
        let third = post(3, author: 5, in: map)
        ada.set(["name": "Anna"])
        #expect(third["author"] == ["id": 5, "name": "Anna"])
        #expect(first["author"] == ["id": 5, "name": "Anna"])
    }

    @Test func offOnASharingModelStopsItsOwnersOnly() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let second = post(2, author: 6, in: map)
        let ada = try #require(first[Post.author])
        let grace = try #require(second[Post.author])

        ada.off("change")
        ada.set(["name": "Ann"])
        grace.set(["name": "Gail"])

        #expect(first["author"] == ["id": 5, "name": "Ada"])
        #expect(second["author"] == ["id": 6, "name": "Gail"])
        // An owner linked after the removal gets a place of its own again.
        let third = post(3, author: 5, in: map)
        ada.set(["name": "Anna"])
        #expect(third["author"] == ["id": 5, "name": "Anna"])
        #expect(first["author"] == ["id": 5, "name": "Ada"])
    }

    @Test func anOwnerThatCopiesTheModelsStateDuringItsDispatchLeavesTheOtherOwnersTold() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let author = try #require(first[Post.author])
        let second = post(2, author: 5, in: map)
        var runs = 0
        var added = false
        first.on("change:author") { _ in
            guard !added else { return }
            added = true
            author.on("change") { _ in runs += 1 }
        }

        author.set(["name": "Grace"])
        #expect(runs == 0)
        #expect(second["author"] == ["id": 5, "name": "Grace"])
        author.set(["name": "Ada"])
        #expect(runs == 1)
        #expect(first["author"] == ["id": 5, "name": "Ada"])
        #expect(second["author"] == ["id": 5, "name": "Ada"])
    }

    @Test func aSharingModelAddedToACollectionForwardsAndKeepsItsOwners() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let author = try #require(first[Post.author])
        let authors = Collection<Author>()
        var forwarded: [String] = []
        authors.on("change:name") { event in forwarded.append(event.name) }

        authors.add(author)
        author.set(["name": "Grace"])
        authors.remove(author)
        author.set(["name": "Ada"])

        #expect(forwarded == ["change:name"])
        #expect(first["author"] == ["id": 5, "name": "Ada"])
    }

    @Test func theSharedMarkedStateGoesWithTheMapAndTheModels() throws {
        weak var marked: EmitterState?
        weak var root: EmitterState?
        do {
            let map = IdentityMap()
            let first = post(1, author: 5, in: map)
            let author = try #require(first[Post.author])
            marked = author.existingState
            root = marked?.sharing?.base
            #expect(root != nil)
        }
        #expect(marked == nil)
        #expect(root == nil)
    }
}
