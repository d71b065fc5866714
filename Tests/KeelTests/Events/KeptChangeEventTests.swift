import Testing

@testable import Keel

/// A handler may keep a model's `change:<attribute>` and `change` events: a kept event keeps
/// the name, value and options of its own change and keeps its model alive, later changes do
/// not show through it, and a model whose events nobody kept is freed.
struct KeptChangeEventTests {
    @Test func twoEventsKeptFromTwoTypedChangesKeepTheirOwnFields() {
        let note = Model(["title": "a", "count": 1])
        var kept: [Event] = []
        note.on("change:title change") { event in kept.append(event) }
        note.set("title", "b", options: ChangeOptions(custom: ["step": 1]))
        note.set("title", "c", options: ChangeOptions(custom: ["step": 2]))
        #expect(kept.map(\.name) == ["change:title", "change", "change:title", "change"])
        #expect(kept.map(\.value) == ["b", nil, "c", nil])
        #expect(kept.map { $0.options["step"] } == [1, 1, 2, 2])
        #expect(kept.allSatisfy { $0.model === note })
    }

    @Test func anEventKeptFromAnEarlierChangeIsNotOverwrittenByLaterOnes() throws {
        let note = Model(["title": "a"])
        var first: Event?
        note.on("change:title") { event in
            if first == nil { first = event }
        }
        for title in ["b", "c", "d"] { note.set("title", .string(title)) }
        note.set(["title": "e"])
        let event = try #require(first)
        #expect(event.name == "change:title" && event.value == "b")
        #expect(note["title"] == "e")
    }

    @Test func anEventKeptThroughACollectionKeepsItsFields() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var kept: [Event] = []
        notes.on("change:title") { event in kept.append(event) }
        note.set("title", "b")
        note.set(["title": "c"])
        #expect(kept.map(\.value) == ["b", "c"])
        #expect(kept.allSatisfy { $0.model === note })
    }

    @Test func aSetInsideAHandlerLeavesTheEventBeingHandledAsItWas() {
        let note = Model(["title": "a", "body": "x"])
        var seen: [String] = []
        note.on("change:title") { event in
            if event.value == "b" { note.set("title", "c") }
            seen.append("\(event.name)=\(event.value?.stringValue ?? "nil")")
        }
        note.on("change") { event in seen.append("\(event.name) title=\(note["title"]?.stringValue ?? "")") }
        note.set("title", "b")
        #expect(seen == ["change:title=c", "change:title=b", "change title=c"])
    }

    @Test func aKeptEventKeepsItsModelAlive() {
        var kept: Event?
        weak var released: Model?
        do {
            let note = Model(["title": "a"])
            released = note
            note.on("change:title") { event in kept = event }
            note.set("title", "b")
        }
        #expect(released != nil)
        #expect(kept?.model?["title"] == "b")
        kept = nil
        #expect(released == nil)
    }

    @Test func aModelWhoseEventsNobodyKeptIsFreed() {
        weak var released: Model?
        var values: [JSONValue?] = []
        do {
            let note = Model(["title": "a"])
            released = note
            note.on("change:title") { event in values.append(event.value) }
            note.on("change") { _ in }
            note.set("title", "b")
            note.set(["title": "c"], options: ChangeOptions(custom: ["source": "form"]))
        }
        #expect(values == ["b", "c"])
        #expect(released == nil)
    }
}
