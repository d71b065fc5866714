import Testing

@testable import Keel

/// What an event keeps reads back as it was given, whichever way it keeps it.
///
/// An event keeps its name, model and value inline, and everything else in one context beside
/// them: the options (their flags or their out-of-line part), the collection, the index and the
/// rarer properties. These tests cover events built by a `set`, by a
/// collection and by hand, and events a handler keeps past the call.
struct EventLayoutTests {
    @Test func anEventIsNameModelValueAndOneContext() {
        // Name (two words), model, value (three) and the context (a reference and an index, three).
        #expect(MemoryLayout<Event>.size <= 9 * MemoryLayout<Int>.size)
    }

    @Test func changeEventsCarryTheCustomValuesAndFlagsOfTheirSet() {
        let note = Model(["title": "a"])
        var seen: [String: ChangeOptions] = [:]
        note.on("change:title change") { event in seen[event.name] = event.options }
        var options = ChangeOptions(validate: false, custom: ["source": "form"])
        note.set(["title": "b"], options: options)
        #expect(seen["change:title"]?["source"] == "form" && seen["change"]?["source"] == "form")
        #expect(seen["change:title"]?.validate == false && seen["change"]?.validate == false)

        options = ChangeOptions(custom: ["source": "socket"])
        note.set("title", "c", options: options)
        #expect(seen["change:title"]?["source"] == "socket" && seen["change"]?["source"] == "socket")
        #expect(seen["change:title"]?.validate == nil && seen["change"]?.validate == nil)
        // Options that hold only out-of-line values reach the event as they are.
        #expect(seen["change"]?.isCopy(of: options) == true)

        // Flags without out-of-line values, as a collection's `set(parse: true)` gives its merges.
        note.set(["title": "c2"], options: ChangeOptions(validate: true, parse: false))
        #expect(seen["change:title"]?.validate == true && seen["change"]?.parse == false)
        #expect(seen["change"]?.extras == nil)

        note.set("title", "d")
        #expect(seen["change:title"]?.hasDefaultValues == true && seen["change"]?.hasDefaultValues == true)
        note.set("title", "e", silent: true)
        #expect(seen["change:title"]?.hasDefaultValues == true)
    }

    @Test func changeEventsCarryTheNestedModelAndPath() throws {
        let owner = Model(["count": 1])
        let invite = Model(["email": "a@example.com"])
        var options = ChangeOptions()
        options.nested = (invite, "invites[1]")
        var seen: [Event] = []
        owner.on("change:count change") { seen.append($0) }
        owner.set(["count": 2], options: options)
        #expect(seen.map(\.name) == ["change:count", "change"])
        #expect(seen.allSatisfy { $0.nestedModel === invite && $0.nestedPath == "invites[1]" })
        #expect(seen.map(\.value) == [2, nil])
    }

    @Test func handMadeEventsKeepEveryCombinationOfValueIndexCollectionAndOptions() {
        let collection = Collection<Model>()
        let model = Model(["a": 1])
        let flagged = Event(name: "ping", value: 1, options: ChangeOptions(silent: true, parse: true))
        #expect(flagged.value == 1 && flagged.index == nil && flagged.collection == nil)
        #expect(flagged.options.silent && flagged.options.parse == true)

        let both = Event(name: "add", model: model, collection: collection, value: "v", index: 4)
        #expect(both.value == "v" && both.index == 4 && both.collection === collection)
        #expect(both.options.hasDefaultValues)

        let custom = Event(
            name: "remove",
            model: model,
            collection: collection,
            index: 0,
            options: ChangeOptions(custom: ["k": 1])
        )
        #expect(custom.index == 0 && custom.value == nil && custom.collection === collection)
        #expect(custom.options["k"] == 1)
        #expect(custom.isAbout(collection: collection) && !custom.isAbout(collection: model))

        let indexOnly = Event(name: "remove", index: Int.min)
        #expect(indexOnly.index == Int.min && indexOnly.value == nil && indexOnly.collection == nil)
        let arguments = Event(name: "ping", arguments: [1, 2])
        #expect(arguments.value == 1 && arguments.arguments == [1, 2] && arguments.index == nil)
        let empty = Event(name: "ping", arguments: [])
        #expect(empty.value == nil && empty.arguments.isEmpty && empty.options.hasDefaultValues)
    }

    @Test func addAndRemoveEventsCarryCollectionIndexAndOptionsOnModelAndCollection() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]])
        var onCollection: [Event] = []
        var onModel: [Event] = []
        collection.on("add remove") { onCollection.append($0) }
        let added = [Model(["id": 4]), Model(["id": 5])]
        for model in added { model.on("add remove") { onModel.append($0) } }
        let first = collection[0]
        first.on("remove") { onModel.append($0) }

        _ = collection.add(added, at: 1, options: UpdateOptions(custom: ["call": "add"]))
        _ = collection.remove([first, added[1]], options: UpdateOptions(silent: false, custom: ["call": "remove"]))
        _ = collection.remove(added[0])

        #expect(onCollection.map(\.name) == ["add", "add", "remove", "remove", "remove"])
        #expect(onCollection.map(\.index) == [1, 2, 0, 1, 0])
        #expect(onCollection.map { $0.options["call"] } == ["add", "add", "remove", "remove", nil])
        #expect(onCollection.allSatisfy { $0.collection === collection && $0.value == nil })
        #expect(onModel.map(\.name) == ["add", "add", "remove", "remove", "remove"])
        #expect(onModel.map(\.index) == onCollection.map(\.index))
        #expect(onModel.allSatisfy { $0.collection === collection })
        #expect(zip(onModel, onCollection).allSatisfy { $0.model === $1.model })
    }

    @Test func forwardedChangeEventsReachTheCollectionWithTheirOptions() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(collection.first)
        var seen: [Event] = []
        collection.on("change:title change") { seen.append($0) }
        note.set(["title": "b"], options: ChangeOptions(custom: ["via": "form"]))
        note.set("title", "c")
        #expect(seen.map(\.name) == ["change:title", "change", "change:title", "change"])
        #expect(seen.map(\.value) == ["b", nil, "c", nil])
        #expect(seen.map { $0.options["via"] } == ["form", "form", nil, nil])
        #expect(seen.allSatisfy { $0.model === note && $0.index == nil })
    }

    @Test func eventsKeptPastTheirCallKeepEveryField() throws {
        var kept: [Event] = []
        do {
            let collection = Collection<Model>([["id": 1, "title": "a"]])
            let note = try #require(collection.first)
            collection.on("all") { kept.append($0) }
            note.set(["title": "b"], options: ChangeOptions(parse: false, custom: ["step": 1]))
            _ = collection.add(Model(["id": 2]), at: 0, options: UpdateOptions(custom: ["step": 2]))
            _ = collection.remove(note, options: UpdateOptions(custom: ["step": 3]))
        }
        #expect(kept.map(\.name) == ["change:title", "change", "add", "update", "remove", "update"])
        #expect(kept.map { $0.options["step"] } == [1, 1, 2, 2, 3, 3])
        #expect(kept.map(\.index) == [nil, nil, 0, nil, 1, nil])
        #expect(kept[0].value == "b" && kept[0].options.parse == false)
        let collection = try #require(kept[2].collection)
        #expect(kept[2...].allSatisfy { $0.collection === collection })
        #expect(kept[4].model?["id"] == 1)
    }
}
