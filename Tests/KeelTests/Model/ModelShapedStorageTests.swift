import Testing

@testable import Keel

#if canImport(Glibc)
    import Glibc
#endif

/// A model with a `Note`'s defaults, whose attributes come out shaped when it is built.
private final class ShapedNote: Model {
    override class var defaults: Attributes { ["title": "", "done": false, "archived": false] }
}

/// A `Note`'s attributes as `construct` builds them: seven keys, two of them the defaults'.
private func noteAttributes(_ i: Int) -> Attributes {
    [
        "id": .int(i), "title": .string("note \(i)"), "body": "text", "done": true,
        "tags": ["a", "b"], "author": ["name": "x", "id": 3], "rank": .int(i % 10),
    ]
}

/// The keys of ``noteAttributes(_:)`` merged with the defaults, in the model's order.
private let noteKeys = ["title", "done", "archived", "id", "body", "tags", "author", "rank"]

/// A model whose storage is shaped: the layout of its keys is the one the last model found
/// only when no test beside this one has built another kind of model in between, so models are
/// built until one is.
private func shapedNote(_ i: Int = 1) throws -> ShapedNote {
    for _ in 0..<10_000 {
        let note = ShapedNote(noteAttributes(i))
        if note.storage.isShaped { return note }
    }
    throw ShapedObjects.ShapingFailed()
}

/// A model built from a fresh literal merged with its class's `defaults` keeps its values by
/// slot, its keys in its layout (the shaped form, 240 bytes of heap for 8 attributes where
/// the entries form takes 352), and reads and changes as any other model.
struct ModelShapedStorageTests {
    @Test func aModelBuiltWithItsDefaultsHasShapedStorageOfItsLayout() throws {
        let note = try shapedNote(7)
        #expect(note.storage.shapedLayout === note.layout)
        #expect(note.attributes.keys == noteKeys)
        #expect(note["title"] == "note 7")
        #expect(note["archived"] == false)
        #expect(note.id == 7)
        #expect(note.has("rank"))
        #expect(note.attributes == ShapedNote(noteAttributes(7)).attributes)
    }

    @Test func aSetOfTheSameKeysReadsRightAndKeepsThePreviousAttributes() throws {
        let note = try shapedNote()
        let before = note.attributes
        note.set(["title": "x", "done": false])
        #expect(note["title"] == "x")
        #expect(note["done"] == false)
        #expect(note.attributes.keys == noteKeys)
        #expect(note.previous("title") == "note 1")
        #expect(note.previousAttributes() == before)
        #expect(note.changedAttributes() == ["title": "x", "done": false])
        #expect(before["title"] == "note 1")
    }

    @Test func setsOfOneAttributeInARowReadRight() throws {
        let note = try shapedNote()
        for round in 0..<5 {
            let before = note.attributes
            note.set("rank", .int(100 + round))
            note["body"] = .string("body \(round)")
            #expect(note["rank"] == .int(100 + round))
            #expect(note["body"] == .string("body \(round)"))
            #expect(note.previous("body") == before["body"] || round > 0)
            #expect(note.attributes.keys == noteKeys)
        }
        #expect(note.changedAttributes() == ["body": "body 4"])
    }

    @Test func aSetWithANewKeyAddsItAtTheEnd() throws {
        let note = try shapedNote()
        let before = note.attributes
        note.set(["extra": 1, "title": "y"])
        #expect(note.attributes.keys == noteKeys + ["extra"])
        #expect(note["extra"] == 1)
        #expect(note["title"] == "y")
        #expect(note.layout.keys.elementsEqual(noteKeys + ["extra"]))
        #expect(note.previousAttributes() == before)
        #expect(note.changedAttributes() == ["extra": 1, "title": "y"])
    }

    @Test func unsetAndClearRemoveAttributes() throws {
        let note = try shapedNote()
        let before = note.attributes
        note.unset("done")
        #expect(!note.has("done"))
        #expect(note.attributes.keys == noteKeys.filter { $0 != "done" })
        #expect(note.previous("done") == true)
        #expect(note.previousAttributes() == before)
        let beforeClear = note.attributes
        note.clear()
        #expect(note.attributes.isEmpty)
        #expect(note.previousAttributes() == beforeClear)
        #expect(note.id == nil)
    }

    @Test func aFetchReadsRight() async throws {
        let sync = InMemorySync()
        let stored = Collection<Model>(url: "/notes", sync: sync)
        _ = try await stored.create(["title": "fetched", "rank": 9])
        let note = try shapedNote()
        note.set(["id": 1])
        note.urlRoot = "/notes"
        note.sync = sync
        try await note.fetch()
        #expect(note["title"] == "fetched")
        #expect(note["rank"] == 9)
        #expect(note["body"] == "text")
        #expect(note.attributes.keys == noteKeys)
    }

    @Test func aSetOfEveryAttributeInOrderStillBecomesTheStorage() throws {
        let note = try shapedNote()
        var input = Attributes()
        for key in noteKeys { input[key] = .string("new " + key) }
        note.set(input)
        #expect(note.storage.isIdentical(to: input))
        #expect(note["rank"] == "new rank")
    }

    @Test func aLiteralTheCallerHoldsIsNotCopied() {
        let input: Attributes = ["id": 1, "title": "kept"]
        let model = Model(input)
        #expect(model.storage.isIdentical(to: input))
        #expect(!model.storage.isShaped)
    }

    #if canImport(Glibc)
        /// A `Note`'s eight attributes take a heap chunk of 240 bytes, 232 of them usable: the
        /// header, the layout's word and eight 24-byte values (the entries form took 352).
        ///
        /// Of several storages alive at once the smallest chunk is the request's (malloc may hand
        /// a request a larger free chunk, as `aLinkTakesAHeapChunkOf112Bytes` explains).
        @Test func eightShapedAttributesTakeAHeapChunkOf240Bytes() throws {
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            let notes = try (0..<32).map { try shapedNote($0) }
            let storages = try notes.map { try #require($0.storage.entryStorage) }
            let shapedCount = storages.filter { $0.isShaped }.count
            #expect(shapedCount == storages.count)
            #expect(storages.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? .max <= 232)
        }
    #endif

    @Test(arguments: 0..<30)
    func randomChangesMatchAPlainDictionary(round: Int) throws {
        let seed = UInt64(0x5A_A9E0) &+ UInt64(round)
        var random = CollectionTestRandom(seed: seed)
        let note = try shapedNote(round)
        var expected: [String: JSONValue] = [:]
        for (key, value) in note.attributes { expected[key] = value }
        let keys = noteKeys + ["x", "y", "z"]
        for step in 0..<40 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            switch random.next() % 10 {
            case 0:
                note.clear()
                expected = [:]
            case 1, 2:
                note.unset(key)
                expected[key] = nil
            case 3:
                let value = JSONValue.int(Int(random.next() % 5))
                let other = keys[Int(random.next() % UInt64(keys.count))]
                note.set(JSONObject(uniqueKeysWithLastValues: [(key, value), (other, .string(other))]))
                expected[key] = value
                expected[other] = .string(other)
            default:
                let value = JSONValue.int(Int(random.next() % 5))
                note.set(key, value)
                expected[key] = value
            }
            var actual: [String: JSONValue] = [:]
            for (key, value) in note.attributes { actual[key] = value }
            #expect(actual == expected, "seed \(seed), step \(step)")
            for key in keys { #expect(note[key] == expected[key], "seed \(seed), step \(step), key \(key)") }
        }
    }
}
