import Keel
import Testing

private final class Note: Model {
    override class var defaults: Attributes { ["title": "", "done": false] }
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        let title = attributes["title"]?.stringValue ?? ""
        return title.count > 20 ? ["title": ["is too long"]] : nil
    }
}

struct ModelSmokeTests {
    @Test func setFiresAttributeChangesThenOneChange() {
        let note = Note(["title": "a"])
        var seen: [String] = []
        note.on("all") { seen.append($0.name) }
        note.set(["title": "b", "done": true])
        #expect(seen == ["change:title", "change:done", "change"])
        #expect(note.previous("title") == "a")
        #expect(note.changed == ["title": "b", "done": true])
    }

    @Test func invalidChangeIsRejectedAndReported() {
        let note = Note(["title": "a"])
        var names: [String] = []
        note.on("all") { names.append($0.name) }
        let accepted = note.set(["title": "this title is far too long"])
        #expect(!accepted)
        #expect(note["title"] == "a")
        #expect(names == ["invalid", "error"])
        #expect(note.validationError?["title"] == ["is too long"])
    }

    @Test func collectionSetMergesRemovesAndAdds() {
        let notes = Collection<Model>([["id": 1], ["id": 2], ["id": 3, "t": "a"]])
        var names: [String] = []
        notes.on("all") { names.append($0.name) }
        notes.set([["id": 4], ["id": 3, "t": "C"], ["id": 1]])
        #expect(names == ["change:t", "change", "remove", "add", "sort", "update"])
        #expect(notes.map { $0.id } == [4, 3, 1])
        #expect(notes.get(2) == nil)
    }

    @Test func eventsArriveAsAnAsyncSequence() async {
        let note = Note()
        let stream = note.events("change:title")
        note["title"] = "x"
        note["title"] = "y"
        var values: [JSONValue?] = []
        for await event in stream {
            values.append(event.value)
            if values.count == 2 { break }
        }
        #expect(values == ["x", "y"])
    }
}
