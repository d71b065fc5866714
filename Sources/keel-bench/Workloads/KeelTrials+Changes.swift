import Foundation
import Keel
import KeelSQLite

// MARK: - change_pull, change_push_apply

extension KeelTrials {
    /// `change_pull`'s state: the in-process ``ChangeFeedServer``, and a `CachingSync` over a
    /// `SQLiteOfflineStore` file holding its 100,000 notes and the cursor after them (pulled
    /// untimed), with the 100 changes then published.
    final class ChangePullState {
        let directory: ScratchDirectory
        let server = ChangeFeedServer()
        let cache: CachingSync
        var report: PullReport?

        init(expiringCursors: Bool) throws {
            directory = try ScratchDirectory()
            cache = CachingSync(remote: server, local: try SQLiteOfflineStore(fileURL: directory.databaseFile))
            let cache = Handoff(value: cache)
            let first = try onMainActor { try await Store(sync: cache.value).pull(StoredNote.self, using: changeFeedPull) }
            try expect(first.changes.count == changeCopyRecords, "\(first.changes.count) notes in the local copy")
            server.publishChanges(expiringCursors: expiringCursors)
        }

        deinit { directory.remove() }
    }

    /// `change_pull`: an app's `Store` pulls the 100 changes into the local copy of 100,000
    /// notes (`Store.pull`; one read of the changes, one transaction). With
    /// `expiringCursors`, the server refuses the cursor and the same changes come by a full
    /// refetch of the 100,000 with reconcile: the `full_refetch` comparison.
    static func changePull(expiringCursors: Bool) -> Trial {
        Trial(
            setup: { try ChangePullState(expiringCursors: expiringCursors) },
            body: { state in
                let cache = Handoff(value: state.cache)
                let pulled = try onMainActor {
                    let store = Store(sync: cache.value)
                    let report = try await store.pull(StoredNote.self, using: changeFeedPull)
                    return Handoff(value: (store, report))
                }.value
                state.report = pulled.1
                return pulled
            },
            verify: { state in
                let report = try unwrap(state.report, "no pull")
                try expect(report.wasFullFetch == expiringCursors, "wasFullFetch \(report.wasFullFetch)")
                // A full refetch too applies only the 100 notes whose version is newer.
                try expect(report.changes.count == changePullChanges, "\(report.changes.count) changes applied")
                let local = state.cache.local
                let lengths = try waitFor {
                    var lengths: [Int] = []
                    for k in 0..<changePullChanges {
                        let record = try await local.record(String(changedNoteID(k)), in: "/notes")
                        lengths.append(record?["title"]?.stringValue?.utf8.count ?? 0)
                    }
                    return lengths
                }
                let cache = state.cache
                let cursor = try waitFor { try await cache.cursor(for: "pull:/notes") }
                return changePullChecksum(cursor: Int(cursor ?? "") ?? -1, titleLengths: lengths)
            }
        )
    }

    /// `change_push_apply`'s state: a `Store` over an `InMemorySync` holding 10,000 live
    /// notes at version 1 (applied untimed), and the 10,000 events to push.
    final class PushApplyState {
        let store: Handoff<Store>
        let events = pushedEvents()

        init() throws {
            store = try onMainActor {
                let store = Store(sync: InMemorySync())
                let notes = (0..<pushedChanges).map {
                    RemoteChange(.created, id: .int($0), attributes: versionedNoteAttributes($0, version: 1), version: "1")
                }
                try await store.apply(notes, to: StoredNote.self)
                return Handoff(value: store)
            }
        }
    }

    /// `change_push_apply`: `Store.listen` applies 10,000 pushed events, one per note, from
    /// an in-process source that decodes each event's JSON as `ServerSentEventSource` does
    /// and hands them over in the batches reads of 16 KiB would bring.
    static func pushApply() -> Trial {
        Trial(
            setup: { try PushApplyState() },
            body: { state in
                let source = EventListSource(events: state.events)
                let store = state.store
                try onMainActor { try await store.value.listen(StoredNote.self, to: source) }
            },
            verify: { state in
                let store = state.store
                let lengths = try onMainActor {
                    store.value.models(StoredNote.self).map { $0["title"]?.stringValue?.utf8.count ?? 0 }
                }
                try expect(lengths.count == pushedChanges, "\(lengths.count) live notes")
                return pushApplyChecksum(titleLengths: lengths)
            }
        )
    }
}

/// A push source that sends a fixed list of Server-Sent Events, then ends. Like
/// `ServerSentEventSource`, it hands over the events of one read from the connection as one
/// batch: as many as fit in ``readBytes`` of `text/event-stream` (the most curl, under
/// `URLSession` on Linux, delivers per read), each decoded
/// (`ServerSentEventSource.change(in:)`) in a task of its own and yielded to the stream's
/// buffer, where `Store.listen` finds it without waiting: a burst of events, as a stream
/// delivers them. The task runs on the main actor, so decoding and applying share one
/// thread, as the floor's do.
struct EventListSource: PushSource {
    /// The bytes of one read: 16 KiB, or `PUSH_READ_BYTES` (`1` hands over one event at a
    /// time, as `Store.listen` consumed them before batches).
    static let readBytes = ProcessInfo.processInfo.environment["PUSH_READ_BYTES"].flatMap { Int($0) } ?? 16 * 1_024

    let events: [ServerSentEvent]

    func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
        Self.changes(in: batches(after: lastEventID))
    }

    func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[PushedChange], any Error>.makeStream()
        Task { @MainActor [events] in
            var batch: [PushedChange] = []
            var bytes = 0
            for event in events {
                guard let change = ServerSentEventSource.change(in: event, versionAttribute: "version") else {
                    continuation.finish(throwing: SyncError.invalidResponse("no change in \(event)"))
                    return
                }
                let size = Self.wireSize(of: event)
                if bytes + size > Self.readBytes && !batch.isEmpty {
                    continuation.yield(batch)
                    batch.removeAll(keepingCapacity: true)
                    bytes = 0
                }
                batch.append(PushedChange(change, eventID: event.id))
                bytes += size
            }
            if !batch.isEmpty { continuation.yield(batch) }
            continuation.finish()
        }
        return stream
    }

    /// The bytes of an event in a `text/event-stream`: `id: …`, `event: …`, `data: …` and
    /// the blank line.
    private static func wireSize(of event: ServerSentEvent) -> Int {
        "id: \(event.id ?? "")\nevent: \(event.event)\ndata: \(event.data)\n\n".utf8.count
    }
}
