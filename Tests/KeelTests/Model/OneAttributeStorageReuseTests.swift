import Observation
import Testing

@testable import Keel

/// A model that records what its `validate` sees, and rejects the title "bad".
private final class Probe: Model {
    static let title = AttributeKey<String>("title")
    static let rank = AttributeKey<Int>("rank")

    var seenByValidate: [String] = []

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        seenByValidate.append(
            "input=\(attributes) attributes=\(self.attributes) previous=\(previousAttributes()) changed=\(changed)"
        )
        return attributes["title"] == "bad" ? ["title": ["must not be bad"]] : nil
    }
}

/// A one-attribute `set` builds its new attributes in the storage of the attributes before last
/// (``ChangeRecord/spare``) and writes `changed` in place: what callers, validators and
/// listeners see must be what a fresh copy gave them.
struct OneAttributeStorageReuseTests {
    @Test func previousIsTheAttributesBeforeEachOfManySets() {
        let probe = Probe(["title": "t", "rank": 0])
        for rank in 1...6 {
            probe[Probe.rank] = rank
            #expect(probe.previousAttributes() == ["title": "t", "rank": .int(rank - 1)])
            #expect(probe.changed == ["rank": .int(rank)])
            #expect(probe.attributes == ["title": "t", "rank": .int(rank)])
        }
    }

    @Test func previousAttributesKeptByACallerStayAsTheyWere() {
        let probe = Probe(["title": "t", "rank": 0])
        probe[Probe.rank] = 1
        probe[Probe.rank] = 2
        let kept = probe.previousAttributes()
        let keptChanged = probe.changedAttributes()
        for rank in 3...6 { probe[Probe.rank] = rank }
        #expect(kept == ["title": "t", "rank": 1])
        #expect(keptChanged == ["rank": 2])
        #expect(probe.previousAttributes() == ["title": "t", "rank": 5])
    }

    @Test func attributesKeptByACallerStayAsTheyWere() {
        let probe = Probe(["title": "t", "rank": 0])
        var snapshots: [Attributes] = []
        for rank in 1...5 {
            probe[Probe.rank] = rank
            snapshots.append(probe.attributes)
        }
        #expect(snapshots.map { $0["rank"] } == [1, 2, 3, 4, 5])
    }

    @Test func aRejectedSetKeepsPreviousAndChanged() {
        let probe = Probe(["title": "a", "rank": 0])
        probe[Probe.title] = "b"
        probe[Probe.title] = "c"
        #expect(!probe.set(Probe.title, "bad"))
        #expect(probe.attributes == ["title": "c", "rank": 0])
        #expect(probe.previousAttributes() == ["title": "b", "rank": 0])
        #expect(probe.changed == ["title": "c"])
        probe[Probe.title] = "d"
        #expect(probe.previousAttributes() == ["title": "c", "rank": 0])
        #expect(probe.attributes == ["title": "d", "rank": 0])
    }

    @Test func validateSeesWhatTheDictionarySetShowsIt() {
        func seen(_ write: (Probe, String) -> Void) -> [String] {
            let probe = Probe(["title": "a", "rank": 0])
            for title in ["b", "c", "bad", "d", "d", "e"] { write(probe, title) }
            return probe.seenByValidate
        }
        let typed = seen { probe, title in probe[Probe.title] = title }
        #expect(typed == seen { probe, title in probe.set(["title": .string(title)]) })
        #expect(typed.count == 5)
    }

    @Test func anUnchangedSetAfterAChangeSettlesTheBookkeeping() {
        let probe = Probe(["title": "a", "rank": 0])
        probe[Probe.rank] = 2
        #expect(probe.hasChanged())
        probe[Probe.rank] = 2
        #expect(!probe.hasChanged())
        #expect(probe.previousAttributes() == ["title": "a", "rank": 2])
        probe.set(Probe.rank, 2)
        #expect(!probe.hasChanged())
        #expect(probe.previousAttributes() == probe.attributes)
    }

    @Test func changedHoldsTheLastKeyOnly() {
        let probe = Probe(["title": "a", "rank": 0])
        probe[Probe.title] = "b"
        probe[Probe.rank] = 1
        #expect(probe.changed == ["rank": 1])
        probe[Probe.title] = "c"
        #expect(probe.changed == ["title": "c"])
    }

    @Test func setsAcrossLayoutChangesKeepEveryAttribute() {
        let model = Model(["a": 1, "b": 2])
        model["b"] = 3
        model["c"] = 4
        model["b"] = 5
        model.unset("a")
        model["b"] = 6
        model["b"] = 7
        #expect(model.attributes == ["b": 7, "c": 4])
        #expect(model.previousAttributes() == ["b": 6, "c": 4])
        #expect(model.get("a") == nil)
    }

    @Test func manyAttributesStayFoundByNameAfterRepeatedSets() {
        var attributes = Attributes()
        for index in 0..<20 { attributes["key\(index)"] = .int(index) }
        let model = Model(attributes)
        for round in 1...4 {
            for index in stride(from: 0, to: 20, by: 3) { model["key\(index)"] = .int(index + 100 * round) }
        }
        for index in 0..<20 {
            let expected = index % 3 == 0 ? index + 400 : index
            #expect(model["key\(index)"] == .int(expected))
        }
        #expect(model.previousAttributes()["key18"] == 318)
        #expect(model.previousAttributes()["key17"] == 17)
    }

    @Test func aListenerAddedDuringChangeOfAnAttributeHearsTheChangeEvent() {
        let probe = Probe(["title": "a", "rank": 0])
        var heard: [String] = []
        probe.once("change:rank") { _ in
            heard.append("change:rank")
            probe.on("change:rank") { _ in heard.append("late change:rank") }
            probe.on("change") { _ in heard.append("late change") }
        }
        probe[Probe.rank] = 1
        #expect(heard == ["change:rank", "late change"])
        probe[Probe.rank] = 2
        #expect(heard == ["change:rank", "late change", "late change:rank", "late change"])
    }

    @Test func aCollectionHearsItsModelsTypedChangesOnlyWhereItListens() {
        let probe = Probe(["id": 1, "title": "a", "rank": 0])
        let probes = Collection<Probe>([probe])
        var heard: [String] = []
        probe[Probe.rank] = 1
        probes.on("change:rank") { event in heard.append("rank \(event.value?.intValue ?? -1)") }
        probe[Probe.rank] = 2
        probe[Probe.title] = "b"
        probes.on("all") { event in heard.append("all \(event.name)") }
        probe[Probe.title] = "c"
        #expect(heard == ["rank 2", "all change:title", "all change"])
    }

    @Test func anEventKeptByAHandlerKeepsItsModelAndValue() {
        var kept: [Event] = []
        do {
            let probe = Probe(["title": "a", "rank": 0])
            probe.on("change:rank change") { event in kept.append(event) }
            probe[Probe.rank] = 1
            probe[Probe.rank] = 2
        }
        #expect(kept.map(\.name) == ["change:rank", "change", "change:rank", "change"])
        #expect(kept.map { $0.model?["rank"] } == [2, 2, 2, 2])
        #expect(kept.map(\.value) == [1, nil, 2, nil])
    }

    @Test func observationReportsEveryTypedChange() {
        let probe = Probe(["title": "a", "rank": 0])
        for rank in 1...4 {
            let reports = Lock(0)
            withObservationTracking {
                _ = probe[Probe.rank]
            } onChange: {
                reports.withLock { $0 += 1 }
            }
            probe[Probe.title] = "title \(rank)"
            probe[Probe.rank] = probe[Probe.rank]
            #expect(reports.withLock { $0 } == 0)
            probe[Probe.rank] = rank
            #expect(reports.withLock { $0 } == 1)
        }
    }
}

/// ``JSONObject/assign(copying:settingValue:at:)``: the object ends equal to the source (whose
/// entries it is given lent, ``JSONObject/lentStorage``) with the one value replaced, in
/// storage of its own.
struct JSONObjectAssignCopyingTests {
    @Test(arguments: [2, 3, 5, 14, 20])
    func assigningMakesAnEqualIndependentObject(_ count: Int) throws {
        var source = Attributes()
        for index in 0..<count { source["k\(index)"] = .string("value \(index)") }
        var expected = source
        expected["k0"] = "replaced"
        for targetCount in [0, 2, 5, 16] {
            var target = Attributes()
            for index in 0..<targetCount { target["t\(index)"] = .int(index) }
            let untouchedSource = source
            target.assign(copying: try #require(source.lentStorage), settingValue: "replaced", at: 0)
            #expect(target == expected)
            #expect(target.keys == source.keys)
            #expect(source == untouchedSource)
            target["k\(count - 1)"] = "changed"
            #expect(target["k\(count - 1)"] == "changed")
            #expect(source == untouchedSource)
            #expect(target["k0"] == "replaced")
        }
    }

    @Test func assigningIntoSharedStorageLeavesTheOtherHolderAlone() throws {
        var target: Attributes = ["a": 1, "b": 2]
        let other = target
        let source: Attributes = ["a": 3, "b": 4]
        target.assign(copying: try #require(source.lentStorage), settingValue: 5, at: 1)
        #expect(source == ["a": 3, "b": 4])
        #expect(target == ["a": 3, "b": 5])
        #expect(other == ["a": 1, "b": 2])
    }
}

/// A change event that a handler keeps keeps its model alive, and only as long as it is kept.
struct ChangeEventModelLifetimeTests {
    @Test func aModelIsReleasedOnlyByTheChangeEventsThatKeptIt() {
        weak var released: Model?
        var kept: Event?
        do {
            let model = Model(["x": 1])
            released = model
            model.on("change") { event in kept = event }
            for x in 2...5 { model["x"] = .int(x) }
        }
        #expect(released != nil)
        #expect(kept?.model?["x"] == 5)
        kept = nil
        #expect(released == nil)
    }
}
