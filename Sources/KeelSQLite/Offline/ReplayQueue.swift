import Keel

/// The queue as one replay sends it: loaded once, with the temporary ids each change
/// mentions, and rewritten in memory as creates get their server ids.
///
/// The store rewrites the same changes durably when it completes a create
/// (``OfflineStore/complete(_:serverRecord:foreignKeys:)``), by the same rule
/// (``TemporaryIDRewrite``); rewriting the loaded copy instead of loading the queue again
/// keeps a replay's cost linear in the length of the queue.
struct ReplayQueue {
    /// The changes, oldest first, with the temporary ids already replaced.
    private(set) var changes: [QueuedChange]
    /// The collection path and id of each change's record as live models know it (as loaded).
    private let liveKeys: [RecordKey]
    /// For each temporary id, the positions of the changes that mention it.
    private var mentioning: [String: [Int]] = [:]
    /// The temporary ids each change mentions, by position.
    private let mentions: [Set<String>]
    /// The temporary ids whose create is queued and has not been sent in this replay.
    private var unsentCreates: Set<String> = []
    /// The key live models have, for each key a record moved to in this replay (keys not
    /// here have not moved).
    private var movedKeys: [RecordKey: RecordKey] = [:]

    init(_ changes: [QueuedChange]) {
        self.changes = changes
        liveKeys = changes.map { RecordKey(collection: $0.collection, id: $0.recordID) }
        mentions = changes.map(TemporaryIDRewrite.mentions(of:))
        for (position, mentioned) in mentions.enumerated() {
            for temporaryID in mentioned { mentioning[temporaryID, default: []].append(position) }
        }
        for change in changes where change.method == .create && TemporaryID.isTemporary(change.recordID) {
            unsentCreates.insert(change.recordID)
        }
    }

    /// The record of the change at `position` as live models know it.
    func liveKey(at position: Int) -> RecordKey { liveKeys[position] }

    /// The key live models have for a record known by `key` now or earlier in this replay.
    func liveKey(of key: RecordKey) -> RecordKey { movedKeys[key] ?? key }

    /// Whether the change at `position` must wait: it changes a record created offline whose
    /// create has not been sent, or mentions one (a URL such as `/users/local-1/invites`, a
    /// body's `"user_id": "local-1"`) whose create is still queued.
    func waitsForACreate(at position: Int) -> Bool {
        let change = changes[position]
        if change.method != .create && TemporaryID.isTemporary(change.recordID) { return true }
        return mentions[position].contains { unsentCreates.contains($0) }
    }

    /// Replaces a temporary id whose create the server answered, in the changes after
    /// `position` that mention it.
    mutating func replace(_ temporaryID: String, with serverID: JSONValue, after position: Int) {
        unsentCreates.remove(temporaryID)
        for later in mentioning.removeValue(forKey: temporaryID) ?? [] where later > position {
            let change = TemporaryIDRewrite.replacing(temporaryID, with: serverID, in: changes[later])
            changes[later] = change
            let key = RecordKey(collection: change.collection, id: change.recordID)
            if key != liveKeys[later] { movedKeys[key] = liveKeys[later] }
        }
    }
}
