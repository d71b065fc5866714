import CKeelSQLite
import Foundation
import Keel
import KeelSQLite

/// The `store-queries` run: the two live-query measurements of issue 29, each beside a
/// plain-Swift floor that does the same work.
///
///     STORE_QUERIES=1 keel-bench
///
/// - `query_change`: 10,000 single changes of the sort key of random models in a live query
///   of 100,000 results sorted by `rank`, each moving its model (set with events, the query
///   moves it in its ranked tree). The floor keeps a sorted array of (rank, order, id) and
///   moves each changed entry by binary search, `remove(at:)` and `insert(_:at:)`.
/// - `query_open`: opening a query of the 10,000 records of a SQLite file through a store
///   already open on it (`Store.sqlite`), filtered (`rank < 50`) and sorted by `rank`: the
///   query is created and loaded, which reads every record into a model. The floor steps a
///   prepared `SELECT json FROM records` with raw sqlite3 calls, parses each row with the
///   floor's own JSON parser, and filters and sorts the same way. Its same-work floor
///   (`query_open_same_work`) also does what the query observably does beyond that: it
///   builds an object for each record, keeps them all by id (as the store holds every
///   loaded model), and its results are the matching objects in order.
///
/// `WORKLOADS=query_open` runs only the named ones. Each is run `REPS` times (default 5) on
/// fresh state; the medians are printed as
/// `name keel_ms floor_ms ratio` (with `same_work_ms` and its ratio where the workload has
/// a same-work floor), then the same for the process CPU time (`keel_cpu_ms`, …, which a
/// busy machine does not inflate as it does wall time), then one JSON object. Exits with status 1 when the two
/// sides disagree on the results.
///
/// With `PROFILE=1`, each selected workload runs one side (`PROFILE_SIDE=keel`, `floor` or
/// `same-work`) twice, the second time inside ``profiledRegionStart()`` and
/// ``profiledRegionEnd()``, and prints `name operations` (what `Benchmarks/profile.sh`
/// divides the count by).
struct StoreQueryBenchmark {
    /// One side of a measurement: its wall-clock and CPU time, and a checksum of its results.
    private typealias Side = () throws -> (Elapsed, Int)

    /// How many models the changed query holds.
    static let queryModels = 100_000
    /// How many single changes `query_change` times.
    static let changes = 10_000
    /// How many records `query_open` reads.
    static let openedRecords = 10_000

    let repetitions: Int
    /// The measurements to run (`WORKLOADS`), or `nil` for both.
    let selected: Set<String>?
    /// The side a profiling run counts (`PROFILE=1`, `PROFILE_SIDE`); `nil` to measure.
    let profiledSide: Configuration.ProfiledSide?

    /// The run the environment asks for, or `nil` without `STORE_QUERIES`.
    init?(environment: [String: String]) {
        guard environment["STORE_QUERIES"] != nil else { return nil }
        repetitions = environment["REPS"].flatMap(Int.init).map { max(1, $0) } ?? 5
        selected = environment["WORKLOADS"].map { Set($0.split(separator: ",").map(String.init)) }
        profiledSide =
            environment["PROFILE"] == "1"
            ? Configuration.ProfiledSide(rawValue: environment["PROFILE_SIDE"] ?? "keel") : nil
    }

    /// Each measurement: its name, how many operations it times, and its sides.
    private static var workloads: [(name: String, operations: Int, keel: Side, floor: Side, sameWork: Side?)] {
        [
            ("query_change", changes, keelChange, floorChange, nil),
            ("query_open", openedRecords, keelOpen, floorOpen, sameWorkOpen),
        ]
    }

    /// Runs both measurements and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        if let profiledSide { return runProfiled(profiledSide) }
        var report = JSONObject()
        var passed = true
        for (name, _, keel, floor, sameWork) in Self.workloads where selected?.contains(name) ?? true {
            do {
                var times: [[Elapsed]] = [[], [], []]
                for _ in 0..<repetitions {
                    let (keelTime, keelCheck) = try keel()
                    let (floorTime, floorCheck) = try floor()
                    try expect(keelCheck == floorCheck, "\(name): Keel's check \(keelCheck), the floor's \(floorCheck)")
                    times[0].append(keelTime)
                    times[1].append(floorTime)
                    if let sameWork {
                        let (sameWorkTime, sameWorkCheck) = try sameWork()
                        try expect(sameWorkCheck == keelCheck, "\(name): the same-work floor's check \(sameWorkCheck)")
                        times[2].append(sameWorkTime)
                    }
                }
                var line = name
                for (label, times) in [("", times.map { $0.map(\.wall) }), ("_cpu", times.map { $0.map(\.cpu) })] {
                    let (keelMS, floorMS) = (Self.medianMilliseconds(times[0]), Self.medianMilliseconds(times[1]))
                    line += String(
                        format: " keel%@_ms=%.2f floor%@_ms=%.2f ratio%@=%.2f",
                        label,
                        keelMS,
                        label,
                        floorMS,
                        label,
                        keelMS / floorMS
                    )
                    report["\(name)_keel\(label)_ms"] = .double(keelMS)
                    report["\(name)_floor\(label)_ms"] = .double(floorMS)
                    if !times[2].isEmpty {
                        let sameWorkMS = Self.medianMilliseconds(times[2])
                        line += String(
                            format: " same_work%@_ms=%.2f same_work_ratio%@=%.2f",
                            label,
                            sameWorkMS,
                            label,
                            keelMS / sameWorkMS
                        )
                        report["\(name)_same_work\(label)_ms"] = .double(sameWorkMS)
                    }
                }
                print(line)
            } catch {
                log("\(name) FAILED: \(error)")
                passed = false
            }
        }
        report["passed"] = .bool(passed)
        print((try? JSONValue.object(report).jsonString()) ?? "{}")
        return passed ? 0 : 1
    }

    /// Runs one side of each selected measurement twice, the second time marked for a
    /// profiler, and prints `name operations` for each.
    private func runProfiled(_ side: Configuration.ProfiledSide) -> Int32 {
        for workload in Self.workloads where selected?.contains(workload.name) ?? true {
            let trial: Side? =
                switch side {
                case .keel: workload.keel
                case .floor: workload.floor
                case .sameWork: workload.sameWork
                }
            guard let trial else {
                log("\(workload.name) has no same-work floor")
                continue
            }
            log("\(workload.name): \(side.rawValue), twice, the second marked for a profiler")
            do {
                _ = try trial()
                Self.isMarkingRegions = true
                defer { Self.isMarkingRegions = false }
                _ = try trial()
            } catch {
                log("\(workload.name) FAILED: \(error)")
                return 1
            }
            print("\(workload.name) \(workload.operations)")
        }
        return 0
    }

    /// Whether the timed sections are marked as profiled regions: only in the profiled run
    /// of a side, so that the warm-up before it leaves no region of its own.
    nonisolated(unsafe) private static var isMarkingRegions = false

    /// Starts timing a section (and a profiled region, when marking).
    private static func startSection() -> SectionTimer {
        if isMarkingRegions { profiledRegionStart() }
        return SectionTimer()
    }

    /// Stops timing a section (and ends its profiled region, when marking).
    private static func stopSection(_ timer: SectionTimer) -> Elapsed {
        let elapsed = timer.stop()
        if isMarkingRegions { profiledRegionEnd() }
        return elapsed
    }

    /// Times `body` as a section.
    private static func measure(_ body: () throws -> Void) rethrows -> Elapsed {
        let timer = startSection()
        try body()
        return stopSection(timer)
    }

    private static func medianMilliseconds(_ times: [Duration]) -> Double {
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        return Double(median.components.seconds) * 1e3 + Double(median.components.attoseconds) / 1e15
    }

    // MARK: - query_change

    /// The ranks of the models and the changes, drawn the same way for both sides.
    private static func changePlan() -> (ranks: [Int], changes: [(index: Int, rank: Int)]) {
        var random = ParkMiller(seed: 29)
        let ranks = (0..<queryModels).map { _ in random.next() % 1_000_000 }
        let changes = (0..<Self.changes).map { _ in (random.next() % queryModels, random.next() % 1_000_000) }
        return (ranks, changes)
    }

    private static func keelChange() throws -> (Elapsed, Int) {
        let plan = changePlan()
        let store = Store.inMemory()
        store.register(Note.self, path: "/notes")
        let models = plan.ranks.enumerated().map { id, rank in
            store.identityMap.model(Note.self, collection: "/notes", attributes: ["id": .int(id), "rank": .int(rank)])
        }
        let query = store.query(Note.self, sort: .attribute("rank"))
        let elapsed = measure {
            for change in plan.changes { models[change.index]["rank"] = .int(change.rank) }
        }
        return (elapsed, orderChecksum(query.models.map { $0.id?.intValue ?? -1 }))
    }

    /// An entry of the floor's sorted array: the sort key, then the order of arrival.
    private struct RankedEntry: Comparable {
        var rank: Int
        var id: Int
        static func < (lhs: RankedEntry, rhs: RankedEntry) -> Bool {
            lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.id < rhs.id
        }
    }

    private static func floorChange() throws -> (Elapsed, Int) {
        let plan = changePlan()
        var ranks = plan.ranks
        var sorted = ranks.enumerated().map { RankedEntry(rank: $1, id: $0) }.sorted()
        func position(of entry: RankedEntry) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < entry { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let elapsed = measure {
            for change in plan.changes {
                let old = RankedEntry(rank: ranks[change.index], id: change.index)
                sorted.remove(at: position(of: old))
                ranks[change.index] = change.rank
                let new = RankedEntry(rank: change.rank, id: change.index)
                sorted.insert(new, at: position(of: new))
            }
        }
        return (elapsed, orderChecksum(sorted.map(\.id)))
    }

    // MARK: - query_open

    /// A file of `openedRecords` notes written by `SQLiteSync` in one transaction.
    private static func writeNotes(to file: URL) throws {
        let sync = try SQLiteSync(fileURL: file)
        defer { sync.close() }
        try waitFor {
            try await sync.transaction { tx in
                for i in 0..<openedRecords { _ = try tx.create(noteAttributes(i), in: "/notes") }
            }
        }
    }

    private static func keelOpen() throws -> (Elapsed, Int) {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try writeNotes(to: directory.databaseFile)
        let file = directory.databaseFile
        return try waitFor {
            let store = try Store.sqlite(fileURL: file)
            store.register(Note.self, path: "/notes")
            defer { (store.sync as? SQLiteSync)?.close() }
            let timer = startSection()
            let query = store.query(
                Note.self,
                filter: QueryFilter { ($0["rank"]?.intValue ?? .max) < 50 },
                sort: .attribute("rank")
            )
            try await query.load()
            let elapsed = stopSection(timer)
            return (elapsed, orderChecksum(query.models.map { $0.id?.intValue ?? -1 }))
        }
    }

    private static func floorOpen() throws -> (Elapsed, Int) {
        try timedRawRead { record, matching in
            if let rank = record["rank"]?.intValue, rank < 50 { matching.append((rank, record["id"]?.intValue ?? -1)) }
        }
    }

    /// A loaded record of the same-work floor: its attributes, held by reference as a model is.
    private final class PlainRecord {
        let attributes: PlainAttributes
        init(_ attributes: PlainAttributes) { self.attributes = attributes }
    }

    private static func sameWorkOpen() throws -> (Elapsed, Int) {
        var held: [Int: PlainRecord] = [:]
        held.reserveCapacity(openedRecords)
        var results: [PlainRecord] = []
        let (elapsed, checksum) = try timedRawRead { attributes, matching in
            let record = PlainRecord(attributes)
            let id = attributes["id"]?.intValue ?? -1
            held[id] = record
            if let rank = attributes["rank"]?.intValue, rank < 50 { matching.append((rank, id)) }
        } finish: { ids in
            results = ids.compactMap { held[$0] }
        }
        precondition(results.count <= held.count)
        return (elapsed, checksum)
    }

    /// Writes the notes, then times a raw sqlite3 read of them: each row parsed with the
    /// floor's JSON parser and given to `take`, which collects the matching (rank, id)
    /// pairs; those are sorted stably by rank, and `finish` gets the ids in order.
    private static func timedRawRead(
        _ take: (PlainAttributes, inout [(rank: Int, id: Int)]) -> Void,
        finish: ([Int]) -> Void = { _ in }
    ) throws -> (Elapsed, Int) {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        try writeNotes(to: directory.databaseFile)
        let database = try RawSQLiteDatabase(path: directory.databasePath)
        let timer = startSection()
        let select = try database.prepare("SELECT json FROM records ORDER BY key")
        defer { sqlite3_finalize(select) }
        var matching: [(rank: Int, id: Int)] = []
        var code = sqlite3_step(select)
        while code == SQLITE_ROW {
            let text = try unwrap(sqlite3_column_text(select, 0), "a NULL json column")
            take(try unwrap(try PlainJSONParser.parse(String(cString: text)).objectValue, "not an object"), &matching)
            code = sqlite3_step(select)
        }
        try database.check(code, expected: SQLITE_DONE)
        // A stable sort by rank, ties in the file's order, as the query's.
        let ids = matching.enumerated().sorted { lhs, rhs in
            lhs.element.rank != rhs.element.rank ? lhs.element.rank < rhs.element.rank : lhs.offset < rhs.offset
        }.map(\.element.id)
        finish(ids)
        let elapsed = stopSection(timer)
        return (elapsed, orderChecksum(ids))
    }
}
