import Observation
import Testing

@testable import Keel

/// A model's and a collection's Observation state is created by their first read; a first
/// read made while an observation is tracking registers the dependency all the same.
struct ObservationOnFirstReadTests {
    @Test func aModelsFirstReadUnderTrackingIsObserved() {
        let model = Model(["rank": 1])
        #expect(model.observationBox == nil)
        let changes = Lock(0)
        withObservationTracking {
            _ = model["rank"]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        model["rank"] = 2
        #expect(changes.withLock { $0 } == 1)
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
