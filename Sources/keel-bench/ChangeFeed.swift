import Foundation
import Keel

/// The records of `change_pull`'s local copy.
let changeCopyRecords = 100_000
/// The changes `change_pull` reads.
let changePullChanges = 100
/// The live notes of `change_push_apply`, and the changes pushed to them (one each).
let pushedChanges = 10_000

/// How `change_pull` asks the in-process server for changes: `?since=<version>`, the cursor
/// the newest `version` answered.
let changeFeedPull = IncrementalPull(
    parameter: "since",
    cursor: .newestAttribute("version"),
    tombstones: .none,
    versionAttribute: "version"
)

/// The `k`-th changed note of `change_pull` (k < 100): ids spread over the 100,000.
func changedNoteID(_ k: Int) -> Int { (k * 997) % changeCopyRecords }

/// Note `i` at `version`: ``noteAttributes(_:)`` with a `version`, and a title that tells
/// the version after the first.
func versionedNoteAttributes(_ i: Int, version: Int) -> Attributes {
    var attributes = noteAttributes(i)
    attributes["version"] = .int(version)
    if version > 1 { attributes["title"] = .string("note \(i) at version \(version)") }
    return attributes
}

/// The check value of `change_pull`: the stored cursor plus the UTF-8 length of each changed
/// note's stored title, so every side must have stored each change and the cursor.
func changePullChecksum(cursor: Int, titleLengths: [Int]) -> Int {
    cursor + titleLengths.reduce(0, +)
}

/// The in-process server of `change_pull`: 100,000 notes at version 1, then (once
/// ``publishChanges(expiringCursors:)`` is called) 100 of them changed at versions
/// 2…101. A read with `since` answers the notes of a newer version, found by binary search
/// in version order; one without answers every note. After `expiringCursors`, a read with
/// `since` answers `410 Gone`, as a server does whose change log no longer reaches the cursor.
final class ChangeFeedServer: Sync {
    private struct State {
        var records: [JSONValue]
        var expiresCursors = false
    }

    private let state: Lock<State>

    init() {
        state = Lock(State(records: (0..<changeCopyRecords).map { .object(versionedNoteAttributes($0, version: 1)) }))
    }

    /// Changes the 100 notes: each moves to the end of the version order.
    func publishChanges(expiringCursors: Bool) {
        let changed = Set((0..<changePullChanges).map(changedNoteID))
        state.withLock { state in
            state.records.removeAll { changed.contains($0["id"]?.intValue ?? -1) }
            for k in 0..<changePullChanges {
                state.records.append(.object(versionedNoteAttributes(changedNoteID(k), version: k + 2)))
            }
            state.expiresCursors = expiringCursors
        }
    }

    /// The notes of a version newer than `version`, oldest first.
    func records(after version: Int?) -> ArraySlice<JSONValue> {
        state.withLock { state in
            guard let version else { return state.records[...] }
            var low = 0
            var high = state.records.count
            while low < high {
                let middle = (low + high) / 2
                if (state.records[middle]["version"]?.intValue ?? 0) > version { high = middle } else { low = middle + 1 }
            }
            return state.records[low...]
        }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let since = request.query.first { $0.name == "since" }?.value
        if since != nil, state.withLock({ $0.expiresCursors }) {
            throw .httpStatus(410, body: ["since": ["This cursor has expired."]])
        }
        return SyncResponse(body: .array(Array(records(after: since.flatMap { Int($0) }))))
    }
}

/// `change_push_apply`'s events: the `k`-th updates note `(k × 7,919) mod 10,000` to
/// version `k + 2`, as the Server-Sent Event a server sends (its `data` the record's JSON).
func pushedEvents() -> [ServerSentEvent] {
    (0..<pushedChanges).map { k in
        let record = JSONValue.object(versionedNoteAttributes((k * 7_919) % pushedChanges, version: k + 2))
        return ServerSentEvent(id: String(k + 1), event: "updated", data: record.description)
    }
}

/// The check value of `change_push_apply`: the UTF-8 length of every note's title.
func pushApplyChecksum(titleLengths: [Int]) -> Int { titleLengths.reduce(0, +) }
