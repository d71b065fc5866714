/// The fastest floor of a shared key table: the keys of one record layout, in slot order,
/// the value each slot starts with, and the layout of the rows a slot holds, if any.
///
/// ``PlainJSONParser/parseRows(_:layout:)`` reads JSON objects straight into values by
/// slot with it; after that, records of the layout read and write by slot and never hash a
/// key.
struct SlotLayout {
    /// The keys, by slot.
    let keys: [String]
    /// The UTF-8 bytes of the keys, by slot, that a parser matches keys against.
    let utf8Keys: [[UInt8]]
    /// The value of each slot that an input leaves out: a default, or `.null`.
    let defaults: ContiguousArray<PlainValue>
    /// The layout of the rows in each slot's array, by slot, or `nil` for plain JSON.
    ///
    /// A has-many relation's rows, stored as an array of their values by slot.
    let rowLayouts: [SlotLayout?]

    init(_ keys: [String], defaults: [String: PlainValue] = [:], rows: [String: SlotLayout] = [:]) {
        self.keys = keys
        utf8Keys = keys.map { Array($0.utf8) }
        self.defaults = ContiguousArray(keys.map { defaults[$0] ?? .null })
        rowLayouts = keys.map { rows[$0] }
    }
}
