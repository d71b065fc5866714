import Testing

@testable import Keel

/// An identity map keeps no reference count on its models: a model's deinit removes its
/// entry at once, wherever the map has it (under several collections, in several maps, after
/// the app removed its handlers, after its id changed), and a model that outlives its map
/// goes without touching it.
struct IdentityMapEntryLifetimeTests {
    final class Note: Model {}

    final class Comment: Model {
        override class var urlRoot: String? { "/comments" }
    }

    /// A class with relations, built through the map's pending builds.
    final class Article: Model {
        static let comments = HasMany<Comment>("comments")
        override class var relations: [any Relation] { [comments] }
    }

    /// A class whose models take another id while they are being built.
    final class Renumbered: Model {
        static let comments = HasMany<Comment>("comments")
        override class var relations: [any Relation] { [comments] }
        override func initialize(_ attributes: Attributes, options: ChangeOptions) {
            if let id = attributes["id"]?.intValue { set(["id": .int(id + 1_000)]) }
        }
    }

    @Test func aDeallocatedModelLeavesTheMapAtOnce() {
        let map = IdentityMap()
        let build = map.factory(for: Note.self, collection: "/notes")
        let kept = (0..<100).map { build(["id": .int($0)], ChangeOptions()) }
        for id in 100..<5_100 {
            _ = build(["id": .int(id)], ChangeOptions())
            #expect(map.count == 100)
        }
        for note in kept {
            #expect(map.existing(Note.self, id: note.id ?? .null, in: "/notes") === note)
        }
        #expect(map.existing(Note.self, id: 4_000, in: "/notes") == nil)
        // A new model under a released one's id is a new instance.
        let again = build(["id": 4_000, "title": "again"], ChangeOptions())
        #expect(map.existing(Note.self, id: 4_000, in: "/notes") === again)
    }

    @Test func theMapFollowsAModelWhoseHandlersTheAppRemoved() {
        let map = IdentityMap()
        var note: Note? = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        note?.off()
        note?.set(["id": 2])
        #expect(map.existing(Note.self, id: 1, in: "/notes") == nil)
        #expect(map.existing(Note.self, id: 2, in: "/notes") === note)
        note = nil
        #expect(map.count == 0)
        #expect(map.existing(Note.self, id: 2, in: "/notes") == nil)
    }

    @Test func aModelInTwoMapsAndTwoCollectionsLeavesEveryEntry() throws {
        let first = IdentityMap()
        let second = IdentityMap()
        var note: Note? = first.model(Note.self, collection: "/notes", attributes: ["id": 1])
        try first.register(try #require(note), collection: "/archive")
        try second.register(try #require(note), collection: "/notes")
        #expect(first.count == 2)
        #expect(second.count == 1)
        note = nil
        #expect(first.count == 0)
        #expect(second.count == 0)
    }

    @Test func aModelThatOutlivesItsMapGoesWithoutIt() {
        var note: Note?
        do {
            let map = IdentityMap()
            note = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        }
        note?.set(["id": 2])
        if let note { note.trigger(Event(name: "destroy", model: note)) }
        note = nil
        #expect(note == nil)
    }

    @Test func aModelBuiltWithRelationsLeavesTheMap() {
        let map = IdentityMap()
        var article: Article? = map.model(
            Article.self,
            collection: "/articles",
            attributes: ["id": 1, "comments": [["id": 7, "article": ["id": 1]]]]
        )
        #expect(map.count == 2)
        #expect(map.existing(Article.self, id: 1, in: "/articles") === article)
        article = nil
        #expect(map.existing(Article.self, id: 1, in: "/articles") == nil)
        #expect(map.count == 0)
    }

    @Test func aModelThatTakesAnotherIdWhileBuiltHasOneEntry() {
        let map = IdentityMap()
        var model: Renumbered? = map.model(Renumbered.self, collection: "/renumbered", attributes: ["id": 1])
        #expect(model?.id == 1_001)
        #expect(map.count == 1)
        #expect(map.existing(Renumbered.self, id: 1, in: "/renumbered") == nil)
        #expect(map.existing(Renumbered.self, id: 1_001, in: "/renumbered") === model)
        model = nil
        #expect(map.count == 0)
    }

    @Test func anUnregisteredOrRemovedModelIsNoLongerFollowed() throws {
        let map = IdentityMap()
        var first: Note? = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        var second: Note? = map.model(Note.self, collection: "/notes", attributes: ["id": 2])
        map.unregister(try #require(first))
        first?.set(["id": 3])
        #expect(map.existing(Note.self, id: 3, in: "/notes") == nil)
        map.removeAll()
        second?.set(["id": 4])
        #expect(map.count == 0)
        first = nil
        second = nil
        let third = map.model(Note.self, collection: "/notes", attributes: ["id": 1])
        #expect(map.count == 1)
        #expect(map.existing(Note.self, id: 1, in: "/notes") === third)
    }
}
