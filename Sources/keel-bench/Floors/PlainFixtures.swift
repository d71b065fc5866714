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

/// The `Note` defaults, in plain Swift.
let plainNoteDefaults: PlainAttributes = ["title": .string(""), "done": .bool(false), "archived": .bool(false)]

/// The short notes of `coll_add` and `coll_get`, in plain Swift.
func plainShortNote(_ i: Int) -> PlainAttributes {
    ["id": .int(i), "title": .string("note \(i)"), "done": .bool(false), "rank": .int(i % 100)]
}

/// The short notes of `coll_add`, as values by slot: `id`, `title`, `done`, `rank`.
func slotShortNote(_ i: Int) -> ContiguousArray<PlainValue> {
    [.int(i), .string("note \(i)"), .bool(false), .int(i % 100)]
}
