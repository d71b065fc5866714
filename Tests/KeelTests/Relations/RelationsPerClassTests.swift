import Keel
import Synchronization
import Testing

/// A class's `relations` is read once, at its first model, and each class keeps its own
/// (a relation declared by a class-level override that differs per subclass).
struct RelationsPerClassTests {
    final class Tag: Model {}

    /// A base class whose relation's key each subclass chooses.
    class Tagged: Model {
        class var tagKey: String { "tag" }
        override class var relations: [any Relation] { [HasOne<Tag>(tagKey)] }
    }

    final class Labelled: Tagged {
        override class var tagKey: String { "label" }
    }

    final class Badged: Tagged {
        override class var tagKey: String { "badge" }
    }

    /// A class that counts the reads of its `relations`.
    final class Counted: Model {
        static let reads = Atomic<Int>(0)
        static let tag = HasOne<Tag>("tag")
        override class var relations: [any Relation] {
            reads.add(1, ordering: .relaxed)
            return [tag]
        }
    }

    @Test func eachSubclassKeepsTheRelationItDeclares() {
        let labelled = Labelled(["label": ["name": "new"]])
        let badged = Badged(["badge": ["name": "gold"]])
        let plain = Tagged(["tag": ["name": "x"]])

        #expect(labelled[HasOne<Tag>("label")]?["name"] == "new")
        #expect(badged[HasOne<Tag>("badge")]?["name"] == "gold")
        #expect(plain[HasOne<Tag>("tag")]?["name"] == "x")
    }

    @Test func eachSubclassKeepsItsRelationThroughAnIdentityMap() {
        let map = IdentityMap()
        let labelled = map.model(Labelled.self, collection: "/labelled", attributes: ["id": 1, "label": ["id": 2]])
        let badged = map.model(Badged.self, collection: "/badged", attributes: ["id": 1, "badge": ["id": 3]])

        #expect(labelled[HasOne<Tag>("label")]?.id == 2)
        #expect(badged[HasOne<Tag>("badge")]?.id == 3)
    }

    @Test func relationsIsReadOncePerClassThroughAnIdentityMap() {
        let map = IdentityMap()
        _ = map.model(Counted.self, collection: "/counted", attributes: ["id": 0])
        let before = Counted.reads.load(ordering: .relaxed)

        for id in 1...5 {
            _ = map.model(Counted.self, collection: "/counted", attributes: ["id": .int(id), "tag": ["id": .int(id)]])
        }

        #expect(Counted.reads.load(ordering: .relaxed) == before)
    }
}
