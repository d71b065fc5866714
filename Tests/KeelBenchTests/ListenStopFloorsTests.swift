import Keel
import Testing

@testable import keel_bench

/// The floors of `listen_stop` do what Keel's `listenTo` and `stopListening` observably do.
///
/// The same-work floor (`NamedListener`) works by event name, without either emitter keeping
/// the other alive; the machine floor (`SlotEmitter`) by slot. Each removes only the
/// listener's handlers.
struct ListenStopFloorsTests {
    @Test func aNamedListenerReachesTheTargetsEventByNameUntilItStops() {
        let listener = NamedListener()
        let target = NamedListener()
        var calls = 0
        listener.listenTo(target, "change") { _ in calls += 1 }
        target.trigger("change")
        target.trigger("add")
        listener.stopListening()
        target.trigger("change")
        #expect(calls == 1)
        #expect(target.hasNoHandlers)
        #expect(listener.listeningTo.isEmpty)
    }

    @Test func stoppingRemovesOnlyTheListenersHandlersAndCountsEachTargetOnce() {
        let listener = NamedListener()
        let other = NamedListener()
        let target = NamedListener()
        var calls: [String] = []
        listener.listenTo(target, "change") { _ in calls.append("listener") }
        listener.listenTo(target, "change") { _ in calls.append("listener again") }
        other.listenTo(target, "change") { _ in calls.append("other") }
        #expect(listener.listeningTo.count == 1)
        #expect(listener.listeningTo.first?.count == 2)
        listener.stopListening()
        target.trigger("change")
        #expect(calls == ["other"])
    }

    @Test func tokensHaveDistinctIdentifiersAndReachTheTarget() {
        let listener = NamedListener()
        let target = NamedListener()
        let first = listener.listenTo(target, "change") { _ in }
        let second = listener.listenTo(target, "change") { _ in }
        #expect(first.id != second.id)
        #expect(first.link === target.link)
    }

    @Test func neitherSideKeepsTheOtherAlive() {
        weak var weakListener: NamedListener?
        weak var weakTarget: NamedListener?
        let target = NamedListener()
        do {
            let listener = NamedListener()
            weakListener = listener
            listener.listenTo(target, "change") { _ in }
        }
        #expect(weakListener == nil)
        #expect(target.hasNoHandlers, "a listener that goes stops listening")

        let listener = NamedListener()
        do {
            let goingTarget = NamedListener()
            weakTarget = goingTarget
            listener.listenTo(goingTarget, "change") { _ in }
        }
        #expect(weakTarget == nil)
        listener.stopListening()
        #expect(listener.listeningTo.isEmpty)
    }

    @Test func aSlotEmitterRemovesOnlyItsOwnHandlers() {
        let listener = SlotEmitter(eventCount: 2)
        let other = SlotEmitter(eventCount: 2)
        let target = SlotEmitter(eventCount: 2)
        var calls: [String] = []
        listener.listenTo(target, 0) { _ in calls.append("listener") }
        listener.listenTo(target, 1) { _ in calls.append("listener 1") }
        other.listenTo(target, 0) { _ in calls.append("other") }
        listener.stopListening()
        target.trigger(0, 0)
        target.trigger(1, 0)
        #expect(calls == ["other"])
        #expect(listener.listeningTo.isEmpty)
        other.stopListening()
        #expect(target.hasNoHandlers)
    }

    @Test func eachSideOfTheWorkloadReturnsItsCheckValue() throws {
        let workload = try #require(Workload.all.first { $0.name == "listen_stop" })
        let sameWork = try #require(workload.sameWorkFloor)
        for trial in [workload.keel, workload.floor, sameWork] {
            #expect(try trial.run(counted: false).check == workload.expectedCheck)
        }
    }
}
