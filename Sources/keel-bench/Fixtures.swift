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
