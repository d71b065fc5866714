import Synchronization
import Testing

@testable import Keel

/// The class hooks that ran, in order, for ``HookLoggingNote``.
private let hookLog = Mutex<[String]>([])

/// Logs each class hook that construction runs.
private final class HookLoggingNote: Model {
    override class var defaults: Attributes {
        hookLog.withLock { $0.append("defaults") }
        return ["title": "", "done": false]
    }

    override class var relations: [any Relation] {
        hookLog.withLock { $0.append("relations") }
        return []
    }

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        hookLog.withLock { $0.append("parse") }
        return response["note"]?.objectValue
    }

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        hookLog.withLock { $0.append("initialize") }
    }
}

/// A model whose id comes from its defaults.
private final class DefaultID: Model {
    override class var defaults: Attributes { ["id": 7, "kind": "default"] }
}

/// Requires a title.
private final class TitledNote: Model {
    override class var defaults: Attributes { ["done": false] }

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"] == nil ? ValidationError("no title") : nil
    }
}

/// A model is built the same way whether its class has relations, validation or `parse` or
/// none of them: defaults first in key order, the id from the final attributes, and the
/// class's hooks in one order.
struct ModelConstructionOrderTests {
    @Test func theClassHooksRunInTheSameOrderWithAndWithoutParse() {
        hookLog.withLock { $0 = [] }
        _ = HookLoggingNote(["title": "plain"])
        let plain = hookLog.withLock { $0 }
        hookLog.withLock { $0 = [] }
        let parsed = HookLoggingNote(["note": ["title": "parsed"]], options: ChangeOptions(parse: true))
        let parsedLog = hookLog.withLock { $0 }
        #expect(plain == ["defaults", "relations", "initialize"])
        #expect(parsedLog == ["parse", "defaults", "relations", "initialize"])
        #expect(parsed["title"] == "parsed")
        #expect(parsed.attributes.keys == ["title", "done"])
    }

    @Test func attributesThatCarryEveryDefaultKeyAreOrderedAsTheDefaultsThenTheirOwn() {
        // Every default key given, in another order, with keys of their own between them.
        let given: Attributes = ["rank": 3, "done": true, "id": 1, "title": "a"]
        let kept = given
        let note = TitledNote(given)
        #expect(note.attributes.keys == ["done", "rank", "id", "title"])
        #expect(note["done"] == true)
        let logged = HookLoggingNote(["done": true, "id": 2, "title": "b", "x": nil])
        #expect(logged.attributes.keys == ["title", "done", "id", "x"])
        #expect(logged.attributes.values.map { $0 } == ["b", true, 2, nil])
        // The caller's copy is its own.
        #expect(kept.keys == ["rank", "done", "id", "title"])
        #expect(kept["rank"] == 3)
    }

    @Test func anIDFromTheDefaultsIsTheModelsIDAndItsIndexKey() {
        let model = DefaultID(["name": "x"])
        #expect(model.id == 7)
        #expect(model.attributes.keys == ["id", "kind", "name"])
        let collection = Collection<DefaultID>()
        collection.add(["name": "y"])
        #expect(collection.get(7)?["name"] == "y")
        let overridden = DefaultID(["id": 8])
        #expect(overridden.id == 8)
    }

    @Test func validatedConstructionMergesTheDefaultsToo() {
        let valid = TitledNote(["id": 1, "title": "a"], options: ChangeOptions(validate: true))
        #expect(valid.validationError == nil)
        #expect(valid.attributes.keys == ["done", "id", "title"])
        #expect(valid.id == 1)
        let invalid = TitledNote(["id": 2], options: ChangeOptions(validate: true))
        #expect(invalid.validationError != nil)
        #expect(invalid.attributes.isEmpty)
        #expect(invalid.id == nil)
    }

    @Test func aModelBuiltByACollectionKnowsItDuringInitialize() throws {
        final class Recording: Model {
            var collectionDuringInitialize: (any ModelCollection)?
            override func initialize(_ attributes: Attributes, options: ChangeOptions) {
                collectionDuringInitialize = collection
            }
        }
        let collection = Collection<Recording>()
        let model = try #require(collection.add(["id": 1]))
        #expect(model.collectionDuringInitialize === collection)
        #expect(model.layout.keys == ["id"])
    }
}
