import Foundation
import Keel
import Observation

/// The `scale-checks` run: the sizes at which earlier rounds found costs that grew with the
/// collection or the model, measured again at a small and a large size so that growth shows
/// (issue 27).
///
///     SCALE_CHECKS=1 keel-bench
///
/// - `remove_one`: 5,000 single `remove(_:)` calls of random models from collections of
///   10,000 and 1,000,000 models, after a first removal (which moves the models into slots,
///   O(*n*) once): the cost per removal must not grow with the collection (it was O(*n*) per
///   removal once).
/// - `unset_one`: 1,000 single `unset(_:)` calls on models of 1,000 and 100,000 attributes:
///   the cost per call grows with the attributes (a model's attributes are one array, and a
///   change of its keys gives it a new layout, as Backbone copies its attributes object on
///   every `set`), but no faster than they do, within a factor of five for the caches of a
///   larger model (each unset used to build an Observation key path per attribute).
/// - `read_distinct_keys`: one observed model read under 1,000,000 distinct attribute names:
///   the process's peak memory grows by the bounded key-path cache, not by the names read.
/// - `reentrant_comparator`: a comparator that adds to its own collection of 100,000 models
///   makes `sort()` throw `CollectionError.reentrantMutation` and leaves the order as it was.
///
/// Prints one line per check and then one JSON object; exits with status 1 when a removal
/// got more than ten times dearer from the small collection to the large one, an unset more
/// than five times as much dearer as the model is larger, memory grew past 64 MiB, or the
/// comparator check failed.
struct ScaleChecks {
    /// The largest growth of peak memory while reading distinct names, in KiB.
    static let largestMemoryGrowthKiB = 64 * 1024

    /// The run the environment asks for, or `nil` without `SCALE_CHECKS`.
    init?(environment: [String: String]) {
        guard environment["SCALE_CHECKS"] != nil else { return nil }
    }

    /// Runs the checks and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        var report = JSONObject()
        var passed = true

        let removal = (Self.nanosecondsPerRemoval(from: 10_000), Self.nanosecondsPerRemoval(from: 1_000_000))
        passed = Self.record("remove_one", small: removal.0, large: removal.1, largestGrowth: 10, into: &report) && passed
        let unset = (Self.nanosecondsPerUnset(attributes: 1_000), Self.nanosecondsPerUnset(attributes: 100_000))
        passed = Self.record("unset_one", small: unset.0, large: unset.1, largestGrowth: 500, into: &report) && passed

        let growth = Self.memoryGrowthReadingDistinctKeys(1_000_000)
        let memoryPassed = growth <= Self.largestMemoryGrowthKiB
        print("read_distinct_keys peak_growth_kib=\(growth) \(memoryPassed ? "ok" : "FAILED")")
        report["read_distinct_keys_peak_growth_kib"] = .int(growth)
        passed = memoryPassed && passed

        let comparatorPassed = Self.reentrantComparatorIsRefused(models: 100_000)
        print("reentrant_comparator \(comparatorPassed ? "ok" : "FAILED")")
        report["reentrant_comparator_refused"] = .bool(comparatorPassed)
        passed = comparatorPassed && passed

        report["passed"] = .bool(passed)
        print((try? JSONValue.object(report).jsonString()) ?? "{}")
        return passed ? 0 : 1
    }

    /// Prints and records a cost at two sizes; `false` when it grew more than `largestGrowth`
    /// times.
    private static func record(
        _ name: String,
        small: Double,
        large: Double,
        largestGrowth: Double,
        into report: inout JSONObject
    ) -> Bool {
        let growth = large / max(small, 1)
        let passed = growth <= largestGrowth
        let line = String(format: "%@ small_ns=%.0f large_ns=%.0f growth=%.2f", name, small, large, growth)
        print("\(line) \(passed ? "ok" : "FAILED")")
        report["\(name)_small_ns"] = .double(small)
        report["\(name)_large_ns"] = .double(large)
        report["\(name)_growth"] = .double(growth)
        return passed
    }

    /// Nanoseconds per single removal of a random model from a collection of `count`.
    private static func nanosecondsPerRemoval(from count: Int) -> Double {
        let collection = Collection<Model>((0..<count).map { ["id": .int($0), "title": "Note \($0)"] })
        var random = ParkMiller(seed: 7)
        let removals = 5_000
        var ids = Array(0..<count)
        for index in 0..<removals {
            ids.swapAt(index, index + random.next() % (count - index))
        }
        let victims = ids[0..<removals].map { collection.get(.int($0))! }
        // The first removal from the middle moves the models into slots, O(n) once; each
        // further one is what this measures.
        _ = collection.remove(collection.get(.int(ids[removals]))!)
        let elapsed = ContinuousClock().measure {
            for model in victims { _ = collection.remove(model) }
        }
        precondition(collection.count == count - removals - 1)
        return nanoseconds(elapsed) / Double(removals)
    }

    /// Nanoseconds per single `unset` of a random attribute of a model with `count`.
    private static func nanosecondsPerUnset(attributes count: Int) -> Double {
        var attributes = Attributes()
        for index in 0..<count { attributes["key\(index)"] = .int(index) }
        let model = Model(attributes)
        var random = ParkMiller(seed: 11)
        let unsets = 1_000
        var keys = Array(0..<count)
        for index in 0..<unsets {
            keys.swapAt(index, index + random.next() % (count - index))
        }
        let names = keys[0..<unsets].map { "key\($0)" }
        let elapsed = ContinuousClock().measure {
            for name in names { model.unset(name) }
        }
        precondition(model.attributes.count == count - unsets)
        return nanoseconds(elapsed) / Double(unsets)
    }

    /// The growth of peak memory, in KiB, while one observed model is read under `count`
    /// distinct names.
    private static func memoryGrowthReadingDistinctKeys(_ count: Int) -> Int {
        let model = Model(["title": "x"])
        let before = PeakMemory.kilobytes
        var found = 0
        withObservationTracking {
            for index in 0..<count where model.get("name\(index)") != nil { found += 1 }
        } onChange: {}
        precondition(found == 0)
        return PeakMemory.kilobytes - before
    }

    /// Whether a comparator that adds to its own collection makes `sort()` throw
    /// `reentrantMutation` and leave the order and the models as they were.
    private static func reentrantComparatorIsRefused(models count: Int) -> Bool {
        let collection = Collection<Model>((0..<count).map { ["id": .int($0), "rank": .int(count - $0)] })
        let before = collection.models.map(\.cid)
        var tries = 0
        collection.comparator = .ordered { left, right in
            tries += 1
            if tries == count / 2 { collection.add(Model(["id": .int(-1)])) }
            return (left["rank"]?.intValue ?? 0) < (right["rank"]?.intValue ?? 0)
        }
        do {
            try collection.sort()
            return false
        } catch {
            return error == .reentrantMutation && collection.models.map(\.cid) == before
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
