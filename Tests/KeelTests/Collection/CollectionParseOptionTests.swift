import Keel
import Testing

/// Reads each model from a `{"note": {...}}` envelope.
private final class EnvelopedNote: Model {
    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        response["note"]?.objectValue ?? response.objectValue
    }
}

/// Drops entries marked `hidden` and counts its `parse` calls.
private final class VisibleNotes: Collection<EnvelopedNote> {
    var parseCalls = 0

    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        parseCalls += 1
        return response.arrayValue?.compactMap(\.objectValue).filter { $0["hidden"] != true }
    }
}

/// `parse: true` on the collection's own inputs (Backbone's `set`/`add` with `parse`), and
/// empty array literals where two overloads could apply.
@MainActor
struct CollectionParseOptionTests {
    @Test func initializerWithParseRunsTheCollectionsAndTheModelsParse() {
        let notes = VisibleNotes(
            [["note": ["id": 1, "title": "Dune"]], ["hidden": true]],
            options: UpdateOptions(parse: true)
        )
        #expect(notes.parseCalls == 1)
        #expect(notes.pluck("title") == ["Dune"])
    }

    @Test func addWithParseRunsTheCollectionsAndTheModelsParse() {
        let notes = VisibleNotes()
        notes.add([["note": ["id": 1]], ["id": 2, "hidden": true]], options: UpdateOptions(parse: true))
        notes.add(["note": ["id": 3]], options: UpdateOptions(parse: true))
        #expect(notes.parseCalls == 2)
        #expect(notes.pluck("id") == [1, 3])
    }

    @Test func setAndResetWithParseRunTheCollectionsParse() {
        let notes = VisibleNotes()
        notes.set([["note": ["id": 1]], ["id": 2, "hidden": true]], options: UpdateOptions(parse: true))
        #expect(notes.pluck("id") == [1])
        notes.reset([["id": 4], ["id": 5, "hidden": true]], options: UpdateOptions(parse: true))
        #expect(notes.pluck("id") == [4])
        #expect(notes.parseCalls == 2)
    }

    @Test func withoutParseTheCollectionsParseDoesNotRun() {
        let notes = VisibleNotes([["id": 1, "hidden": true]])
        notes.add(["id": 2, "hidden": true])
        #expect(notes.parseCalls == 0)
        #expect(notes.count == 2)
    }

    @Test func emptyArrayLiteralsCompileAndDoNothingHarmful() {
        let notes = Collection<Model>([["id": 1]])
        #expect(notes.remove([]).isEmpty)
        #expect(notes.count == 1)
        #expect(notes.add([]).isEmpty)
        #expect(notes.set([]).isEmpty)
        #expect(notes.isEmpty)
        notes.add(["id": 2])
        #expect(notes.reset([]).isEmpty)
        #expect(notes.isEmpty)
    }
}
