/// `noteAttrs(i)` of the specification, in plain Swift.
func plainNote(_ i: Int) -> PlainAttributes {
    [
        "id": .int(i),
        "title": .string("note \(i)"),
        "body": .string("text"),
        "done": .bool(false),
        "rank": .int(i % 100),
        "tags": .array([.string("a"), .string("b")]),
        "author": .object(["name": .string("x"), "id": .int(3)]),
    ]
}

/// The `Note` layout: the keys of `noteAttrs` first, then `archived`, which only the
/// defaults set; `title`, `done` and `archived` have defaults.
let noteLayout = SlotLayout(
    ["id", "title", "body", "done", "rank", "tags", "author", "archived"],
    defaults: ["title": .string(""), "done": .bool(false), "archived": .bool(false)]
)

/// `noteAttrs(i)` of the specification as values by slot: the first seven slots of
/// ``noteLayout``.
func slotNote(_ i: Int) -> ContiguousArray<PlainValue> {
    [
        .int(i), .string("note \(i)"), .string("text"), .bool(false), .int(i % 100),
        .array([.string("a"), .string("b")]), .object(["name": .string("x"), "id": .int(3)]),
    ]
}

/// The short notes of `coll_add`, as values by slot: `id`, `title`, `done`, `rank`.
func slotShortNote(_ i: Int) -> ContiguousArray<PlainValue> {
    [.int(i), .string("note \(i)"), .bool(false), .int(i % 100)]
}

/// `shortNoteAttributes(i)` as the same-work floors take it: an attribute map, in order.
func namedShortNote(_ i: Int) -> PlainPairs {
    [("id", .int(i)), ("title", .string("note \(i)")), ("done", .bool(false)), ("rank", .int(i % 100))]
}
