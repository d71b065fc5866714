import Testing

@testable import Keel

/// A controller-like class that cannot subclass `EventEmitter`: it holds a listener.
private final class TitleLabel {
    let listener = EventListener()
    var text = ""
    var renders = 0
    var onDeinit: () -> Void = {}

    init(note: Model) {
        listener.listenTo(note, .change("title")) { [weak self] event in
            self?.text = event.value?.stringValue ?? ""
            self?.renders += 1
        }
    }

    deinit { onDeinit() }
}

/// `EventListener`: `listenTo`, `listenToOnce` and `stopListening` for any object.
struct EventListenerTests {
    @Test func listenToRunsTheHandlerForTheTargetsEvents() {
        let note = Model()
        let listener = EventListener()
        var titles: [String] = []
        listener.listenTo(note, "change:title") { titles.append($0.value?.stringValue ?? "") }

        note["title"] = "A"
        note["body"] = "ignored"
        note["title"] = "B"

        #expect(titles == ["A", "B"])
    }

    @Test func aDeallocatedListenerStopsListeningByItself() {
        let note = Model()
        var calls = 0
        do {
            let listener = EventListener()
            listener.listenTo(note, "change") { _ in calls += 1 }
            listener.listenToOnce(note, .destroy) { _ in calls += 1 }
            listener.listenTo(note, ["sync": { _ in calls += 1 }])
            #expect(note.handlerCount == 3)
            #expect(note.listenerCount == 1)
        }
        #expect(note.handlerCount == 0)
        #expect(note.listenerCount == 0)
        note["title"] = "A"
        note.trigger("destroy sync")
        #expect(calls == 0)
    }

    @Test func anObjectHoldingAListenerIsDeallocatedAndItsHandlersGoWithIt() {
        let note = Model()
        var deinits = 0
        weak var weakLabel: TitleLabel?
        do {
            let label = TitleLabel(note: note)
            label.onDeinit = { deinits += 1 }
            weakLabel = label
            note["title"] = "Groceries"
            #expect(label.text == "Groceries")
        }
        #expect(weakLabel == nil)
        #expect(deinits == 1)
        #expect(note.handlerCount == 0)
        #expect(note.listenerCount == 0)
        note["title"] = "Errands"
    }

    @Test func theListenerDoesNotKeepItsTargetsAlive() {
        let listener = EventListener()
        weak var weakNote: Model?
        do {
            let note = Model()
            weakNote = note
            listener.listenTo(note, .change) { _ in }
        }
        #expect(weakNote == nil)
        listener.stopListening()
    }

    @Test func listenToOnceRunsOncePerEventName() {
        let note = Model()
        let listener = EventListener()
        var names: [String] = []
        listener.listenToOnce(note, [.sync, .error]) { names.append($0.name) }
        listener.listenToOnce(note, ["request": { names.append($0.name) }])

        note.trigger("sync error request")
        note.trigger("sync error request")

        #expect(names == ["sync", "error", "request"])
        #expect(note.handlerCount == 0)
    }

    @Test func stopListeningRemovesByTargetAndByName() {
        let first = EventEmitter()
        let second = EventEmitter()
        let listener = EventListener()
        var heard: [String] = []
        listener.listenTo(first, "a b") { heard.append("first:" + $0.name) }
        listener.listenTo(second, [.add, .remove]) { heard.append("second:" + $0.name) }

        listener.stopListening(first, "a")
        listener.stopListening(nil, .remove)
        first.trigger("a b")
        second.trigger("add remove")
        listener.stopListening(second)
        second.trigger("add")
        first.trigger("b")
        listener.stopListening()
        first.trigger("b")

        #expect(heard == ["first:b", "second:add", "first:b"])
        #expect(first.handlerCount == 0)
        #expect(second.handlerCount == 0)
    }

    @Test func cancellingTheTokenRemovesOneRegistration() {
        let note = Model()
        let listener = EventListener()
        var calls = 0
        let token = listener.listenTo(note, .change) { _ in calls += 1 }
        listener.listenTo(note, .change) { _ in calls += 10 }

        token.cancel()
        note["title"] = "A"

        #expect(calls == 10)
    }
}
