import Keel
import KeelTestServer

/// The four labelled models of Backbone's collection `beforeEach`: ids 3, 2, 1, 0 with
/// labels a, b, c, d, in a collection in that order, plus an empty second collection.
struct LabelledCollectionFixture {
    let a = Model(["id": 3, "label": "a"])
    let b = Model(["id": 2, "label": "b"])
    let c = Model(["id": 1, "label": "c"])
    let d = Model(["id": 0, "label": "d"])
    let col: Collection<Model>
    let otherCol = Collection<Model>()

    init() {
        col = Collection([a, b, c, d])
    }
}

/// Records the events an emitter fires, for `#expect(log.names == [...])`.
///
/// Events hold their model and collection strongly, so don't use a log in tests that check
/// deallocation.
final class CollectionEventLog {
    private(set) var events: [Event] = []

    /// Starts recording `names` (every event by default) on `emitter`.
    init(_ emitter: EventEmitter, _ names: String = "all") {
        emitter.on(names) { [self] event in events.append(event) }
    }

    /// The names of the recorded events, in order.
    var names: [String] { events.map(\.name) }

    /// The recorded events with this name.
    func events(named name: String) -> [Event] { events.filter { $0.name == name } }

    /// Forgets what was recorded so far.
    func clear() { events = [] }
}

extension Array where Element: Model {
    /// The client ids, to compare model identity in expectations.
    var cidsInOrder: [String] { map(\.cid) }
}

extension Keel.Collection {
    /// The client ids of the models, in order.
    var cidsInOrder: [String] { map(\.cid) }
}

/// The suite's seeded generator (``SeededRandom``, SplitMix64), so shuffles are repeatable.
struct CollectionTestRandom: RandomNumberGenerator {
    private var base: SeededRandom

    init(seed: UInt64) { base = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { base.next() }
}

/// A collection subclass that runs `onDeinit` when its deinit starts, before
/// `Collection`'s own: for tests of what a subclass's deinit sees.
final class NotifyingCollection: Collection<Model> {
    var onDeinit: (() -> Void)?

    deinit { onDeinit?() }
}
