import Foundation
@testable import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// Live queries over a SQLite file checked against a plain run of the same query after every
/// step of a seeded series of operations, among them commits of a second connection to the
/// same file (another process's commits): creates, changes and deletes that reach the store
/// through `PRAGMA data_version` and a reload, triggered directly instead of by the timer.
@MainActor
struct LiveQueryExternalCommitRandomizedTests {
    /// One query under test and how to run it again plainly.
    private struct Case {
        let query: LiveQuery<Note>
        let isIncluded: (Note) -> Bool
        let isSectioned: Bool
        let offset: Int
        let limit: Int?

        /// The query run from scratch over the store's models: sorted by group when
        /// sectioned, then rank (missing values last), ties in the store's order.
        func rerun(_ store: Store) -> [String] {
            let models = store.models(Note.self).filter(isIncluded).enumerated().sorted { lhs, rhs in
                if isSectioned, let order = Self.order(lhs.element["group"], rhs.element["group"]) { return order }
                return Self.order(lhs.element["rank"], rhs.element["rank"]) ?? (lhs.offset < rhs.offset)
            }.map(\.element.cid)
            let start = min(offset, models.count)
            let end = limit.map { min(models.count, start + $0) } ?? models.count
            return Array(models[start..<end])
        }

        private static func order(_ a: JSONValue?, _ b: JSONValue?) -> Bool? {
            switch (a?.intValue, b?.intValue) {
            case (let a?, let b?) where a != b: return a < b
            case (.some, .none): return true
            case (.none, .some): return false
            default: return nil
            }
        }
    }

    @Test func matchesAPlainRunAfterEveryStepIncludingAnotherConnectionsCommits() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let store = try Store.sqlite(fileURL: file)
            let other = try SQLiteSync(fileURL: file)
            var random = SeededRandom(seed: 29)
            let cases = [
                Case(
                    query: store.query(Note.self, filter: .init { ($0["group"]?.intValue ?? 0) % 3 != 0 }, sort: .attribute("rank"), offset: 2, limit: 6),
                    isIncluded: { ($0["group"]?.intValue ?? 0) % 3 != 0 },
                    isSectioned: false,
                    offset: 2,
                    limit: 6
                ),
                Case(
                    query: store.query(Note.self, sort: .attribute("rank"), sectionedBy: "group"),
                    isIncluded: { _ in true },
                    isSectioned: true,
                    offset: 0,
                    limit: nil
                ),
            ]
            try await cases[0].query.load()
            var externalCommits = 0

            for step in 0..<400 {
                let held = store.models(Note.self)
                let attributes: Attributes = [
                    "rank": .int(Int.random(in: 0..<20, using: &random)),
                    "group": .int(Int.random(in: 0..<6, using: &random)),
                ]
                switch held.count < 6 ? 0 : Int.random(in: 0..<6, using: &random) {
                case 0:  // a create through the store
                    try await store.create(Note.self, attributes)
                case 1:  // a change through the store
                    try await held[Int.random(in: 0..<held.count, using: &random)].save(attributes)
                case 2:  // a destroy through the store
                    try await held[Int.random(in: 0..<held.count, using: &random)].destroy()
                default:  // another connection commits a create, a change or a delete
                    let records = try await other.perform(SyncRequest(method: .read, url: url("/notes"))).body?.arrayValue ?? []
                    let id = records.randomElement(using: &random)?["id"]?.intValue ?? 0
                    let request =
                        switch Int.random(in: 0..<3, using: &random) {
                        case 0: SyncRequest(method: .create, url: url("/notes"), body: .object(attributes))
                        case 1: SyncRequest(method: .patch, url: url("/notes/\(id)"), body: .object(attributes))
                        default: SyncRequest(method: .delete, url: url("/notes/\(id)"))
                        }
                    // A change or delete of a record the other connection no longer has
                    // commits nothing.
                    let committed = (try? await other.perform(request)) != nil
                    if committed { externalCommits += 1 }
                    // What a query kept loaded does when its timer fires, without the timer.
                    await store.checkForExternalChanges(force: true)
                    #expect(cases[0].query.isStale == committed, "step \(step)")
                    try await cases[0].query.load()
                }
                let file = try await other.perform(SyncRequest(method: .read, url: url("/notes"))).body?.arrayValue ?? []
                let inFile = Set(file.map { "\($0["id"] ?? nil) \($0["rank"] ?? nil) \($0["group"] ?? nil)" })
                let inStore = Set(store.models(Note.self).map { "\($0["id"] ?? nil) \($0["rank"] ?? nil) \($0["group"] ?? nil)" })
                #expect(inStore == inFile, "the store holds the file's records, step \(step)")
                for (index, check) in cases.enumerated() {
                    let expected = check.rerun(store)
                    #expect(check.query.map(\.cid) == expected, "query \(index), step \(step)")
                    let grouped = check.query.sections.map { $0.models.map(\.cid) }
                    #expect(grouped.flatMap(\.self) == expected, "sections of query \(index), step \(step)")
                    if check.isSectioned {
                        let sections = check.query.sections
                        #expect(sections.allSatisfy { section in section.models.allSatisfy { $0["group"] == section.key } })
                        #expect(Set(sections.map(\.key)).count == sections.count, "step \(step)")
                    }
                    if check.query.map(\.cid) != expected || inStore != inFile { return }
                }
            }
            #expect(externalCommits > 100)
        }
    }
}
