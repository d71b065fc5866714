import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The app killed with SIGKILL while it applies a large incremental pull from the Django test
/// app into its SQLite offline store loses nothing and applies nothing twice after a restart,
/// counted against the server's history: after every kill the store holds exactly the
/// server's tasks as of its stored cursor, each pull that completed applied each change
/// since the previous cursor once, and the local changes queued before stay queued.
///
/// Each round another client creates 500 tasks and renames and deletes some, then child
/// processes (see ``ChangeKillChild``) pull the same changes one after another, each killed
/// at another point, until one finishes: as it starts (before the answer is read) or as it
/// reports the batch it is about to store, then at three counted points inside the
/// transaction that stores it (as it reports the n-th change written, n seeded between 1
/// and 90% of the batch), then not at all. A store that commits the cursor apart from the
/// records (before them) shows the cursor without the records after such a kill.
/// `KEEL_CHANGE_KILL_ROUNDS` rounds (6 by default, 30 children). Linux only, as
/// `OfflineKillTests`.
@Suite(.serialized)
@MainActor
struct PullKillTests {
    #if os(Linux)
        private static var rounds: Int {
            ProcessInfo.processInfo.environment["KEEL_CHANGE_KILL_ROUNDS"].flatMap { Int($0) } ?? 6
        }

        private let feed = "pull:\(ChangeKillServer.collection)"

        @Test func killingAPullWhileItAppliesLosesNothingAndAppliesNothingTwice() async throws {
            let server = ChangeKillServer(try await TestServer.dedicated(to: "pull-kills"))
            try await withTemporaryDirectory { directory in
                let database = directory.appending(path: "cache.sqlite")
                try await server.create(300, round: -1)
                let first = try await server.firstRun(database: database)
                var history = first.history
                let queuedTitles = first.queuedTitles
                let queued = Set(queuedTitles.keys)
                let queue = first.queue
                var cursor = first.pullCursor

                var random = SeededRandom(seed: 131)
                for round in 0..<Self.rounds {
                    let kept = history.state(through: .max)
                    let renames = ChangeKillServer.pick(10, of: kept, excluding: [], round: round)
                    let deletions = ChangeKillServer.pick(5, of: kept, excluding: queued.union(renames), round: round + 100)
                    try await server.churn(renaming: renames, deleting: deletions, round: round)
                    try await server.create(500, round: round)
                    history = try await server.history()
                    let first: PullKillPoint = round.isMultiple(of: 2) ? .start : .batch
                    let inside = (0..<3).map { _ in PullKillPoint.written(Double.random(in: 0...0.9, using: &random)) }
                    for killPoint in [first] + inside + [.none] {
                        let run = try await ChangeKillChild.run(mode: "pull", database: database, server: server.server.baseURL) {
                            killPoint.isReached(by: $0)
                        }

                        let local = try await LocalCopy.read(database, feed: feed)
                        let context = "round \(round), killed \(killPoint)"
                        #expect(run.wasKilled || run.finished, "\(context): the child failed: \(run.lines)")
                        local.expectHolds(history.state(updatedThrough: local.cursor), queuedTitles: queuedTitles, context)
                        #expect(local.queue == queue, "\(context): the queued local changes changed")
                        if let stored = run.lines.first(where: { $0.first == "APPLIED" }) {
                            #expect(stored[1] == local.cursor, "\(context): the cursor is not the one stored")
                            let expected = Self.shown(in: history, after: cursor, through: local.cursor, queued: queued)
                            #expect(Int(stored[2]) == expected, "\(context): \(stored[2]) changes applied, not \(expected)")
                        }
                        if killPoint == .none { #expect(local.cursor == history.newestVersion, "\(context): the pull stopped short") }
                        cursor = local.cursor
                    }
                }

                // The app starts once more and pulls to the end.
                do {
                    let restarted = CachingSync(
                        remote: RESTSync(baseURL: server.server.baseURL),
                        local: try SQLiteOfflineStore(fileURL: database),
                        configuration: ChangeKillServer.queueingConfiguration
                    )
                    let report = try await Store(sync: restarted).pull(DjangoTask.self, using: .djangoREST)
                    #expect(!report.wasFullFetch)
                    #expect(report.changes.count == Self.shown(in: history, after: cursor, through: history.newestVersion, queued: queued))
                }
                let local = try await LocalCopy.read(database, feed: feed)
                local.expectHolds(history.state(through: .max), queuedTitles: queuedTitles, "at the end")
                #expect(local.cursor == history.newestVersion)
                #expect(local.queue == queue)
            }
        }

        /// How many changes a pull from `start` to `end` applies: one per task changed in
        /// between, except tasks with a queued change (held back) and tasks created and
        /// deleted in between (never held).
        private static func shown(in history: ServerHistory, after start: String?, through end: String?, queued: Set<String>) -> Int {
            let before = history.state(updatedThrough: start)
            return history.changed(after: start, through: end).filter { id, event in
                !queued.contains(id) && !(event.change.kind == .deleted && before[id] == nil)
            }.count
        }
    #endif
}
