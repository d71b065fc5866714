import Keel

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

/// A small deterministic random number generator (SplitMix64), so shuffles are repeatable.
struct CollectionTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A collection subclass that runs `onDeinit` when its deinit starts, before
/// `Collection`'s own: for tests of what a subclass's deinit sees.
final class NotifyingCollection: Collection<Model> {
    var onDeinit: (() -> Void)?

    deinit { onDeinit?() }
}
