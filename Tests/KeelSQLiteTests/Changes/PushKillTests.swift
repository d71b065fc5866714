import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The app killed with SIGKILL while it applies the Django test app's Server-Sent Events to
/// its SQLite offline store loses nothing and applies nothing twice after a restart, counted
/// against the server's history: after every kill the store holds exactly the server's tasks
/// as of its stored event id, each restarted listener stores the events that follow it, in
/// order, each once, and the local changes queued before stay queued.
///
/// A local copy is pulled, three of its tasks renamed locally (queued), then another client
/// makes some 700 changes (renaming the queued tasks too). Child processes (see
/// ``ChangeKillChild``) listen from the stored event id, each killed just after it reports
/// a counted number of changes written (seeded, between 1 and 80), so the kill lands inside
/// a batch's transaction (the events of one read, stored together) or just after it; the
/// Django app writes each event as a chunk of its own, which curl hands over as a read of
/// its own, so these batches hold one event (``PullKillTests`` kills inside larger ones);
/// `KEEL_CHANGE_KILL_ROUNDS` + 3 rounds (9 by default), then one listens to the end. Linux
/// only, as `OfflineKillTests`.
@Suite(.serialized)
@MainActor
struct PushKillTests {
    #if os(Linux)
        private static var rounds: Int {
            (ProcessInfo.processInfo.environment["KEEL_CHANGE_KILL_ROUNDS"].flatMap { Int($0) } ?? 6) + 3
        }

        private let feed = "push:\(ChangeKillServer.collection)"

        @Test func killingAListenerWhileItAppliesLosesNothingAndAppliesNothingTwice() async throws {
            let server = ChangeKillServer(try await TestServer.dedicated(to: "push-kills"))
            try await withTemporaryDirectory { directory in
                let database = directory.appending(path: "cache.sqlite")
                try await server.create(300, round: -1)
                let first = try await server.firstRun(database: database)
                let pulled = first.history
                let pulledThrough = pulled.eventIDs.last ?? 0
                let queuedTitles = first.queuedTitles
                let queue = first.queue
                let kept = pulled.state(through: .max)
                let renames = ChangeKillServer.pick(200, of: kept, excluding: [], round: 0) + Array(queuedTitles.keys)
                let deletions = ChangeKillServer.pick(100, of: kept, excluding: Set(renames), round: 1)
                try await server.churn(renaming: renames, deleting: deletions, round: 0)
                try await server.create(400, round: 0)
                let history = try await server.history()
                let last = try #require(history.eventIDs.last)

                var random = SeededRandom(seed: 31)
                // The listeners start after the events the first pull brought.
                var cursor = pulledThrough
                var stored: [Int] = []
                // The kill rounds, then one that listens to the end.
                for round in 0...Self.rounds where cursor != last {
                    let isLast = round == Self.rounds
                    let count = Int.random(in: 1...80, using: &random)
                    let run = try await ChangeKillChild.run(
                        mode: "push",
                        database: database,
                        server: server.server.baseURL,
                        last: String(last),
                        start: String(pulledThrough)
                    ) { lines in
                        !isLast && lines.count(where: { $0.first == "WRITTEN" }) == count
                    }

                    let local = try await LocalCopy.read(database, feed: feed)
                    let context = "round \(round), killed after \(isLast ? "nothing" : "\(count) events")"
                    #expect(run.wasKilled || run.finished, "\(context): the child failed: \(run.lines)")
                    let reported = run.storedCursors.compactMap { Int($0) }
                    let following = history.eventIDs.filter { $0 > cursor }
                    // A batch's cursor is the id of its last event.
                    #expect(zip(reported, reported.dropFirst()).allSatisfy { $0 < $1 }, "\(context): events stored twice")
                    #expect(reported.allSatisfy(following.contains), "\(context): \(reported) are not all events after \(cursor)")
                    let storedCursor = local.cursor.flatMap { Int($0) } ?? pulledThrough
                    #expect(storedCursor >= (reported.last ?? cursor), "\(context): a stored event's id was lost")
                    #expect(history.eventIDs.contains(storedCursor), "\(context): \(storedCursor) is no event")
                    local.expectHolds(
                        history.state(through: max(storedCursor, pulledThrough)),
                        queuedTitles: queuedTitles,
                        context
                    )
                    #expect(local.queue == queue, "\(context): the queued local changes changed")
                    stored += history.eventIDs.filter { $0 > cursor && $0 <= storedCursor }
                    cursor = storedCursor
                }

                #expect(cursor == last)
                #expect(stored == history.eventIDs.filter { $0 > pulledThrough }, "an event was stored twice or never")
            }
        }
    #endif
}
