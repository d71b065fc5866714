import Keel

/// The `Note` model of the specification: a subclass whose `defaults` have exactly three
/// keys, two of which (`title`, `done`) overlap ``noteAttributes(_:)``.
final class Note: Model {
    override class var defaults: Attributes { ["title": "", "done": false, "archived": false] }
}

/// `noteAttrs(i)` of the specification: the seven attributes of note `i`.
func noteAttributes(_ i: Int) -> Attributes {
    [
        "id": .int(i),
        "title": .string("note \(i)"),
        "body": "text",
        "done": false,
        "rank": .int(i % 100),
        "tags": ["a", "b"],
        "author": ["name": "x", "id": 3],
    ]
}

/// The attributes of the short notes that `coll_add` and `coll_get` add.
func shortNoteAttributes(_ i: Int) -> Attributes {
    ["id": .int(i), "title": .string("note \(i)"), "done": false, "rank": .int(i % 100)]
}

/// The JSON text that `parse_reset` parses, on both sides.
///
/// An array of ``noteAttributes(_:)`` for the first `count` notes, written by Keel's writer
/// (a value's description is its compact JSON text).
func notesJSON(count: Int) -> String {
    JSONValue.array((0..<count).map { .object(noteAttributes($0)) }).description
}

/// The user of `nested_merge`: a model whose `invites` are a has-many relation of
/// ``BenchInvite``.
final class BenchUser: Model {
    static let invites = HasMany<BenchInvite>("invites")
    override class var relations: [any Relation] { [invites] }
}

/// The invite of `nested_merge`, one of a ``BenchUser``'s `invites`.
final class BenchInvite: Model {}

/// The id of invite `k` (0..<10) of user `user` in `nested_merge`: `user * 10 + k`.
func inviteID(user: Int, _ k: Int) -> Int { user * 10 + k }

/// `userAttrs(u, round)` of the specification: user `u` with its ten invites, whose emails
/// name the `round` (1 for the initial load, 2 for the merged response).
func userAttributes(_ u: Int, round: Int) -> Attributes {
    [
        "id": .int(u),
        "name": .string("user \(u)"),
        "email": .string("user\(u)@example.com"),
        "invites": .array(
            (0..<10).map { k in
                let id = inviteID(user: u, k)
                return [
                    "id": .int(id), "email": .string("invite\(id)-r\(round)@example.com"),
                    "accepted": .bool(k % 2 == 0),
                ]
            }
        ),
    ]
}

/// The JSON text of the first `count` users of ``userAttributes(_:round:)``, written by
/// Keel's writer: what `nested_merge` parses on both sides.
func usersJSON(count: Int, round: Int) -> String {
    JSONValue.array((0..<count).map { .object(userAttributes($0, round: round)) }).description
}

/// A number that event handlers increment.
final class Counter {
    var value = 0
}

/// A call count and a running sum that event handlers update.
final class Tally {
    var calls = 0
    var sum = 0
}

/// Values that event handlers record, in order.
final class Log<Entry> {
    var entries: [Entry] = []
}

/// A preallocated array of optional slots that a workload fills.
final class Slots<Element> {
    var items: [Element?]

    init(count: Int) {
        items = Array(repeating: nil, count: count)
    }
}

/// How many notes the loopback server of `sync_fetch` returns per request.
let syncFetchRecords = 1_000

/// How many fetches one timed run of `sync_fetch` makes.
let syncFetchRounds = 100

/// The check value of one `sync_fetch` response: the order checksum of the ids plus the
/// UTF-8 length of every title, so both sides must have read each record's fields.
func syncFetchChecksum(_ records: [(id: Int, titleLength: Int)]) -> Int {
    orderChecksum(records.map(\.id)) + records.reduce(0) { $0 + $1.titleLength }
}
