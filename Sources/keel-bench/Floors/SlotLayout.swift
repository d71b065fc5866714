/// The fastest floor of a shared key table: the keys of one record layout, in slot order,
/// and the value each slot starts with.
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

    init(_ keys: [String], defaults: [String: PlainValue] = [:]) {
        self.keys = keys
        utf8Keys = keys.map { Array($0.utf8) }
        self.defaults = ContiguousArray(keys.map { defaults[$0] ?? .null })
    }
}
