import Observation
import Testing

@testable import Keel

/// A model with keys that the typed set finds by their bits, and one it does not (longer than
/// a small string).
private final class Gauge: Model {
    static let level = AttributeKey<Int>("level")
    static let label = AttributeKey<String>("label")
    static let longName = AttributeKey<Int>("a_name_longer_than_fifteen_bytes")
}

/// Counts `onChange` calls; `onChange` closures must be `Sendable`.
private final class ChangeCounter: Sendable {
    private let state = Lock(0)

    var count: Int { state.withLock { $0 } }

    func record() { state.withLock { $0 += 1 } }
}

/// The typed `set` of one attribute: its in-line test for a `set` that changes nothing, and
/// its change, which moves the storages instead of copying them, give what the general `set`
/// gives.
struct TypedSetPathTests {
    @Test func anUnchangedSetAfterAChangeStillStartsAnOutermostSet() {
        let gauge = Gauge(["level": 0, "label": "a"])
        gauge[Gauge.level] = 1
        #expect(gauge.changed == ["level": 1])
        // Not settled (`changed` holds `level`), so the in-line test must not return early.
        gauge.set(Gauge.level, 1)
        #expect(gauge.changed.isEmpty)
        #expect(!gauge.hasChanged())
        #expect(gauge.previousAttributes() == ["level": 1, "label": "a"])
    }

    @Test func previousAfterChangesWrittenInPlace() {
        let gauge = Gauge(["level": 0, "label": "a"])
        var seen: [String] = []
        var changedSeen: [Attributes] = []
        gauge.on("change") { [unowned gauge] _ in
            seen.append("\(gauge.previous("level")?.intValue ?? -1)->\(gauge[Gauge.level] ?? -1)")
            changedSeen.append(gauge.changed)
        }
        for level in 1...4 { gauge[Gauge.level] = level }
        #expect(seen == ["0->1", "1->2", "2->3", "3->4"])
        #expect(changedSeen == [["level": 1], ["level": 2], ["level": 3], ["level": 4]])
        #expect(gauge.previousAttributes() == ["level": 3, "label": "a"])
    }

    @Test func unchangedAndChangedSetsOfAKeyNotFoundByItsBits() {
        let gauge = Gauge(["a_name_longer_than_fifteen_bytes": 1])
        var changes = 0
        gauge.on("change") { _ in changes += 1 }
        gauge.set(Gauge.longName, 1)
        #expect(changes == 0)
        gauge[Gauge.longName] = 2
        #expect(changes == 1)
        #expect(gauge[Gauge.longName] == 2)
        #expect(gauge.changed == ["a_name_longer_than_fifteen_bytes": 2])
    }

    @Test func anUnchangedStringIsDecidedByTheGeneralPath() {
        let gauge = Gauge(["label": "a"])
        var changes = 0
        gauge.on("change") { _ in changes += 1 }
        gauge.set(Gauge.label, "a")
        gauge[Gauge.label] = "b"
        gauge.set(Gauge.label, "b")
        #expect(changes == 1)
        // An outermost `set` that changes nothing starts afresh, as in Backbone.
        #expect(gauge.changed.isEmpty)
        #expect(gauge.previousAttributes() == ["label": "b"])
    }

    @Test func observationHearsOfATypedSetOfTheAttributeAndOfTheAttributes() {
        let gauge = Gauge(["level": 0, "label": "a"])
        let levelChanges = ChangeCounter()
        let labelChanges = ChangeCounter()
        let attributesChanges = ChangeCounter()
        withObservationTracking {
            _ = gauge[Gauge.level]
        } onChange: {
            levelChanges.record()
        }
        withObservationTracking {
            _ = gauge[Gauge.label]
        } onChange: {
            labelChanges.record()
        }
        withObservationTracking {
            _ = gauge.attributes
        } onChange: {
            attributesChanges.record()
        }
        gauge[Gauge.level] = 1
        #expect(levelChanges.count == 1)
        #expect(labelChanges.count == 0)
        #expect(attributesChanges.count == 1)
        #expect(gauge.previousAttributes() == ["level": 0, "label": "a"])
        #expect(gauge.changed == ["level": 1])
    }

    @Test func observationSeesTheBookkeepingOfTheSetWhenItHearsOfIt() {
        let gauge = Gauge(["level": 0])
        gauge[Gauge.level] = 1
        nonisolated(unsafe) let probe = gauge
        let seen = Lock("")
        withObservationTracking {
            _ = gauge[Gauge.level]
        } onChange: {
            let text =
                "previous \(probe.previous("level")?.intValue ?? -1) level \(probe.attributes["level"]?.intValue ?? -1)"
            seen.withLock { $0 = text }
        }
        gauge[Gauge.level] = 5
        // At `willSet` the attributes are not written yet and the bookkeeping already is, as
        // by the general path.
        #expect(seen.withLock { $0 } == "previous 1 level 1")
    }

    @Test func changeIdFiresForATypedSetOfTheIDAttribute() {
        let gauge = Gauge(["id": 1])
        var previousIDs: [JSONValue?] = []
        gauge.on("changeId") { previousIDs.append($0.previousID) }
        gauge[AttributeKey<Int>("id")] = 2
        #expect(gauge.id == 2)
        #expect(previousIDs == [1])
    }
}
