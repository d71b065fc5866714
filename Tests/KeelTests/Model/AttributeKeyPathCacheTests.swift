import Observation
import Testing

@testable import Keel

/// The cache of attribute key paths for Observation stays bounded, and tracking stays
/// right for attributes whose key paths were evicted.
struct AttributeKeyPathCacheTests {
    @Test func theCacheHoldsAtMostTwoGenerations() {
        var table = AttributeKeyPathTable(capacity: 16)
        var built = 0
        for index in 0..<10_000 {
            let key = index % 3 == 0 ? "clé\(index)" : "key\(index)"
            _ = table.path(for: key) {
                built += 1
                return \Model.[observing: key]
            }
            #expect(table.count <= 32)
        }
        #expect(built == 10_000)
    }

    @Test func keysInSteadyUseStayCachedAmongManyOthers() {
        var table = AttributeKeyPathTable(capacity: 64)
        var built = 0
        for index in 0..<5_000 {
            for key in ["title", "rank", "titré", "key\(index)"] {
                _ = table.path(for: key) {
                    built += 1
                    return \Model.[observing: key]
                }
            }
        }
        // "title", "rank" and "titré" are built once each; every distinct key once.
        #expect(built == 5_003)
    }

    @Test func anEvictedKeyPathIsRebuiltEqual() {
        var table = AttributeKeyPathTable(capacity: 4)
        let first = table.path(for: "title") { \Model.[observing: "title"] }
        for index in 0..<100 { _ = table.path(for: "other\(index)") { \Model.[observing: "other\(index)"] } }
        var rebuilt = false
        let second = table.path(for: "title") {
            rebuilt = true
            return \Model.[observing: "title"]
        }
        #expect(rebuilt)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func readingManyDistinctNamesKeepsTheSharedCacheBounded() {
        let model = Model(["title": "a"])
        for index in 0..<(3 * AttributeKeyPathTable.defaultCapacity) {
            withObservationTracking {
                _ = model["name\(index)"]
            } onChange: {
            }
        }
        #expect(Model.cachedAttributeKeyPathCount <= 2 * AttributeKeyPathTable.defaultCapacity)
    }

    @Test func trackingSurvivesTheEvictionOfItsKeyPath() {
        let model = Model(["title": "a"])
        let changes = Lock(0)
        withObservationTracking {
            _ = model["title"]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        // Enough other names to push "title" out of both generations.
        for index in 0..<(3 * AttributeKeyPathTable.defaultCapacity) { _ = model["evict\(index)"] }
        model["title"] = "b"
        #expect(changes.withLock { $0 } == 1)
    }
}
