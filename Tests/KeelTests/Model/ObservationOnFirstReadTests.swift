import Observation
import Testing

@testable import Keel

/// A model's and a collection's Observation state is created by their first read; a first
/// read made while an observation is tracking registers the dependency all the same.
struct ObservationOnFirstReadTests {
    @Test func aModelsFirstReadUnderTrackingIsObserved() {
        let model = Model(["rank": 1])
        #expect(!model.hasRegistrar)
        let changes = Lock(0)
        withObservationTracking {
            _ = model["rank"]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        model["rank"] = 2
        #expect(changes.withLock { $0 } == 1)
    }

    @Test func changesAndUnobservedReadsCreateNoRegistrar() {
        let model = Model(["rank": 1])
        model["rank"] = 2
        model.set(["title": "new"])
        model.unset("title")
        #expect(!model.hasRegistrar)
        _ = model["rank"]
        #expect(model.hasRegistrar)
    }

    /// The registrar a read outside any tracking creates is the one later tracking observes,
    /// through every kind of read: an attribute by its slot, one the model lacks, all
    /// attributes, and the validation error.
    @Test func aRegistrarCreatedOutsideTrackingServesLaterTracking() {
        let model = Model(["rank": 1])
        _ = model["rank"]
        let changes = Lock(0)
        withObservationTracking {
            _ = model["rank"]
            _ = model["missing"]
            _ = model.attributes
            _ = model.validationError
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        model["missing"] = 1
        #expect(changes.withLock { $0 } == 1)
    }

    /// Models observed under tracking, outside it, and while reads are unobserved are all
    /// freed: the registrar a model created is destroyed with it.
    @Test func observedModelsAreFreedWithTheirRegistrars() {
        weak var tracked: Model?
        weak var readOnce: Model?
        weak var unobserved: Model?
        do {
            let first = Model(["rank": 1])
            let second = Model(["rank": 2])
            let third = Model(["rank": 3])
            tracked = first
            readOnce = second
            unobserved = third
            withObservationTracking {
                _ = first["rank"]
            } onChange: {
            }
            _ = second["rank"]
            third.readingUnobserved { _ = third["rank"] }
            #expect(first.hasRegistrar && second.hasRegistrar && !third.hasRegistrar)
            first["rank"] = 10
            #expect(first.registrar != nil && third.registrar == nil)
        }
        #expect(tracked == nil && readOnce == nil && unobserved == nil)
    }

    @Test func aCollectionsFirstLookupUnderTrackingIsObserved() {
        let collection = Collection<Model>()
        let changes = Lock(0)
        withObservationTracking {
            _ = collection.get(1)
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        collection.add(["id": 1])
        #expect(changes.withLock { $0 } == 1)
    }
}
