import Foundation
import Keel
import Testing

/// A live query checked against a plain run of the same query after every step of a long,
/// seeded series of random operations: adds, changes that enter or leave the filter or change
/// section, sort-key changes, destroys, fetches that merge server changes and bring new records
/// (placed in one batch), and id rewrites like a replay's; sectioned queries' sections are
/// checked against a plain grouping of the run.
struct LiveQueryRandomizedTests {
    /// One query under test: its parameters, to run it again plainly, and a mirror of its
    /// events.
    private struct Case {
        let query: LiveQuery<StoreTodo>
        let mirror: QueryMirror<StoreTodo>
        let isIncluded: (StoreTodo) -> Bool
        let isSorted: Bool
        let isSectioned: Bool
        let offset: Int
        let limit: Int?

        /// The query run from scratch over the store's models, `all` in the store's order.
        func rerun(_ all: [StoreTodo]) -> [StoreTodo] {
            var models = all.filter(isIncluded)
            if isSorted {
                // A stable sort by group when sectioned, then by rank (missing values last),
                // ties in the store's order. Each model's keys are read once and packed into
                // one integer with its position, so the sort compares integers (this check is
                // most of the test's time).
                let keys = models.enumerated().map { offset, model in
                    let group = isSectioned ? Self.key(model[StoreTodo.group]) : 0
                    return group << 41 | Self.key(model[StoreTodo.rank]) << 32 | offset
                }
                models = keys.sorted().map { models[$0 & 0xFFFF_FFFF] }
            }
            let start = min(offset, models.count)
            let end = limit.map { min(models.count, start + $0) } ?? models.count
            return Array(models[start..<end])
        }

        /// The results of ``rerun(_:)`` grouped by hand into runs of one group.
        func regroup(_ models: [StoreTodo]) -> [[String]] {
            guard isSectioned else { return models.isEmpty ? [] : [models.map(\.cid)] }
            var sections: [[String]] = []
            for (index, model) in models.enumerated() {
                if index > 0, models[index - 1][StoreTodo.group] == model[StoreTodo.group] {
                    sections[sections.count - 1].append(model.cid)
                } else {
                    sections.append([model.cid])
                }
            }
            return sections
        }

        /// A 9-bit sort key for an optional attribute of the test's (below 256) that puts
        /// missing values last.
        private static func key(_ value: Int?) -> Int {
            guard let value else { return 256 }
            precondition((0..<256).contains(value), "the test's attributes are below 256")
            return value
        }
    }

    @Test func matchesAPlainRunAfterEveryStepOfTwoThousandRandomOperations() async throws {
        let server = InMemorySync()
        let store = Store(sync: server)
        var random = CollectionTestRandom(seed: 29)  // SplitMix64, so that a failure repeats
        let inGroups: (StoreTodo) -> Bool = { ($0[StoreTodo.group] ?? 0) % 3 != 0 }
        // filter, plain test, sorted, sectioned by group, offset, limit
        let parameters: [(QueryFilter<StoreTodo>?, (StoreTodo) -> Bool, Bool, Bool, Int, Int?)] = [
            (QueryFilter<StoreTodo>.key(StoreTodo.group) { ($0 ?? 0) % 3 != 0 }, inGroups, true, false, 3, 7 as Int?),
            (QueryFilter<StoreTodo>(inGroups), inGroups, true, false, 0, nil),
            (nil, { _ in true }, true, false, 0, 12),
            (QueryFilter<StoreTodo>.equals(StoreTodo.done, false), { $0[StoreTodo.done] == false }, false, false, 2, 5),
            (nil, { _ in true }, false, false, 0, nil),
            (QueryFilter<StoreTodo>.equals(StoreTodo.done, false), { $0[StoreTodo.done] == false }, true, true, 0, nil),
            (nil, { _ in true }, true, true, 4, 9),
        ]
        let cases = parameters.map { filter, isIncluded, isSorted, isSectioned, offset, limit in
            let query = store.query(
                StoreTodo.self,
                filter: filter,
                sort: isSorted ? .attribute("rank") : nil,
                sectionedBy: isSectioned ? "group" : nil,
                offset: offset,
                limit: limit
            )
            return Case(
                query: query,
                mirror: QueryMirror(query),
                isIncluded: isIncluded,
                isSorted: isSorted,
                isSectioned: isSectioned,
                offset: offset,
                limit: limit
            )
        }
        let todos = store.collection(StoreTodo.self)
        var nextID = 1000

        for step in 0..<2_000 {
            // Most steps never suspend: without this the test would hold one of the
            // cooperative pool's two threads (on a 2-core machine) for its whole run.
            await Task.yield()
            let held = store.models(StoreTodo.self)
            let operation = held.count < 8 ? 0 : Int.random(in: 0..<8, using: &random)
            switch operation {
            case 0, 1:  // add: a create, or a record a fetch brings
                let attributes: Attributes = [
                    "rank": .int(Int.random(in: 0..<20, using: &random)),
                    "group": .int(Int.random(in: 0..<6, using: &random)),
                    "done": .bool(Bool.random(using: &random)),
                ]
                if Bool.random(using: &random) {
                    try await store.create(StoreTodo.self, attributes)
                } else {
                    nextID += 1
                    var record = attributes
                    record["id"] = .int(nextID)
                    _ = store.identityMap.model(StoreTodo.self, collection: "/todos", attributes: record)
                }
            case 2:  // a change that may enter or leave the filters
                let model = held[Int.random(in: 0..<held.count, using: &random)]
                model[StoreTodo.group] = Int.random(in: 0..<6, using: &random)
                model[StoreTodo.done] = Bool.random(using: &random)
            case 3, 4:  // a sort-key change, sometimes removing the key
                let model = held[Int.random(in: 0..<held.count, using: &random)]
                model[StoreTodo.rank] = Int.random(in: 0..<25, using: &random) < 24 ? Int.random(in: 0..<20, using: &random) : nil
            case 5:  // a destroy
                let model = held[Int.random(in: 0..<held.count, using: &random)]
                if model.isNew {
                    try await model.destroy()
                } else {
                    model.trigger(Event(name: "destroy", model: model))
                }
            case 6:  // a fetch that merges changes made on the server and brings new records
                let list = URL(filePath: "/todos")
                for _ in 0..<Int.random(in: 0..<4, using: &random) {
                    let record: Attributes = [
                        "rank": .int(Int.random(in: 0..<20, using: &random)),
                        "group": .int(Int.random(in: 0..<6, using: &random)),
                        "done": .bool(Bool.random(using: &random)),
                    ]
                    _ = try await server.perform(SyncRequest(method: .create, url: list, body: .object(record)))
                }
                for record in server.records(at: "/todos").shuffled(using: &random).prefix(3) {
                    guard let id = record["id"], let url = URL(string: "/todos/\(id)") else { continue }
                    var changed = record
                    changed["rank"] = .int(Int.random(in: 0..<20, using: &random))
                    changed["group"] = .int(Int.random(in: 0..<6, using: &random))
                    _ = try await server.perform(SyncRequest(method: .update, url: url, body: .object(changed)))
                }
                var options = SyncOptions()
                options.remove = false
                try await todos.fetch(options: options)
            default:  // a replay's id rewrite: a temporary id becomes the server's
                let model = held[Int.random(in: 0..<held.count, using: &random)]
                nextID += 1
                model.set(["id": .int(nextID), "rank": .int(Int.random(in: 0..<20, using: &random))])
            }
            let all = store.models(StoreTodo.self)
            for (index, check) in cases.enumerated() {
                let rerun = check.rerun(all)
                let expected = rerun.map(\.cid)
                let found = check.query.models.map(\.cid)
                #expect(check.query.map(\.cid) == expected, "indexing query \(index), step \(step)")
                #expect(found == expected, "query \(index), step \(step)")
                #expect(check.mirror.models.map(\.cid) == expected, "events of query \(index), step \(step)")
                #expect(
                    check.query.sections.map { $0.models.map(\.cid) } == check.regroup(rerun),
                    "sections of query \(index), step \(step)"
                )
                if found != expected { return }
            }
        }
    }
}
