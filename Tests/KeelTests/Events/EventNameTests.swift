import Testing

@testable import Keel

private final class Card: Model {
    static let title = AttributeKey<String>("title")
    static let views = AttributeKey<Int>("views")
}

extension EventName {
    fileprivate static let archived: EventName = "archived"
}

/// Typed event names: `EventName` values accepted wherever a string of names is.
struct EventNameTests {
    @Test func builtInNamesSpellBackbonesEvents() {
        let names: [EventName] = [
            .all, .change, .changeID, .add, .remove, .update, .reset, .sort, .destroy, .request, .sync, .error,
            .invalid,
        ]
        #expect(
            names.map(\.rawValue) == [
                "all", "change", "changeId", "add", "remove", "update", "reset", "sort", "destroy", "request",
                "sync", "error", "invalid",
            ]
        )
        #expect(EventName.change("title").rawValue == "change:title")
        #expect(EventName.change(Card.title) == "change:title")
        #expect(EventName.archived.description == "archived")
    }

    @Test func anArrayOfNamesNamesEachOfThem() {
        let membership: EventName = [.add, .remove, .change(Card.title)]
        #expect(membership.rawValue == "add remove change:title")
        #expect(membership.matches(Event(name: "remove")))
        #expect(!membership.matches(Event(name: "change")))
    }

    @Test func typedAttributeChangeReceivesTheAttributesEvents() {
        let card = Card()
        var titles: [JSONValue?] = []
        card.on(.change(Card.title)) { titles.append($0.value) }

        card[Card.title] = "Draft"
        card[Card.views] = 3
        card[Card.title] = nil

        #expect(titles == ["Draft", nil])
    }

    @Test func typedAndStringNamesReachTheSameHandlers() {
        let notes = Collection<Model>()
        var names: [String] = []
        notes.on([.add, .remove]) { names.append($0.name) }
        notes.on("update") { names.append($0.name) }

        notes.add(["id": 1])
        notes.remove(1)
        notes.off(.update)
        notes.add(["id": 2])

        #expect(names == ["add", "update", "remove", "update", "add"])
    }

    @Test func offRemovesTypedNamesForOneOwner() {
        let emitter = EventEmitter()
        let owner = EventEmitter()
        var calls: [String] = []
        emitter.on(.archived, owner: owner) { _ in calls.append("owned") }
        emitter.on(.archived) { _ in calls.append("free") }

        emitter.off(.archived, owner: owner)
        emitter.trigger(.archived)

        #expect(calls == ["free"])
    }

    @Test func onceRunsOnceForATypedName() {
        let note = Model()
        var syncs = 0
        note.once(.sync) { _ in syncs += 1 }

        note.trigger(.sync)
        note.trigger(.sync)

        #expect(syncs == 1)
    }

    @Test func triggerWithTypedNamesPassesTheArguments() {
        let emitter = EventEmitter()
        var received: [String] = []
        emitter.on("all") { event in
            received.append(event.name + ":" + event.arguments.map(\.debugDescription).joined(separator: ","))
        }

        emitter.trigger(.archived)
        emitter.trigger([.archived, .sort], 1, "two")
        emitter.trigger(.archived, 42)

        #expect(received == ["archived:", "archived:1,\"two\"", "sort:1,\"two\"", "archived:42"])
    }

    @Test func listenToAndStopListeningTakeTypedNames() {
        let note = Model()
        let view = EventEmitter()
        var heard: [String] = []
        view.listenTo(note, [.change, .destroy]) { heard.append($0.name) }
        view.listenToOnce(note, .sync) { heard.append($0.name) }

        note.trigger("sync sync change")
        view.stopListening(note, .change)
        note.trigger("change destroy")
        view.stopListening(nil, .destroy)
        note.trigger("destroy")

        #expect(heard == ["sync", "change", "destroy"])
        #expect(note.handlerCount == 0)
        #expect(view.listeningToCount == 0)
    }

    @Test func stringVariablesStillPickTheStringMethods() {
        let emitter = EventEmitter()
        let name = "archived"
        var calls = 0
        emitter.on(name) { _ in calls += 1 }
        emitter.trigger(name)
        emitter.off(name)
        emitter.trigger("archived")
        #expect(calls == 1)
    }

    @Test func eventStreamsTakeTypedNames() async {
        let card = Card()
        let stream = card.events(.change(Card.title))
        card[Card.views] = 1
        card[Card.title] = "A"
        var values: [JSONValue?] = []
        for await event in stream {
            values.append(event.value)
            break
        }
        #expect(values == ["A"])
    }

    // MARK: - values(of:)

    @Test func valuesOfAnAttributeAreDecodedToTheKeysType() async {
        let card = Card()
        let titles = card.values(of: Card.title)
        let views = card.values(of: Card.views)
        card[Card.title] = "Draft"
        card[Card.views] = 3
        card["title"] = 7
        card[Card.title] = nil
        card[Card.views] = 4
        card[Card.title] = "Final"

        var receivedTitles: [String?] = []
        for await title in titles {
            receivedTitles.append(title)
            if receivedTitles.count == 4 { break }
        }
        var receivedViews: [Int?] = []
        for await count in views {
            receivedViews.append(count)
            if receivedViews.count == 2 { break }
        }

        #expect(receivedTitles == ["Draft", nil, nil, "Final"])
        #expect(receivedViews == [3, 4])
    }

    @Test func valuesEndWhenTheModelIsDeallocated() async {
        var card: Card? = Card()
        let titles = card?.values(of: Card.title)
        card?[Card.title] = "Last"
        card = nil

        var received: [String?] = []
        if let titles {
            for await title in titles { received.append(title) }
        }

        #expect(received == ["Last"])
    }
}
