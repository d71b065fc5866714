/// The same-work floor of a model in a collection: the attribute map it was made from, read
/// and merged by the name of each key, and a client id.
///
/// What a Keel model observably has in `coll_add`, `coll_set_merge`, `coll_sort` and
/// `coll_remove`, and the machine floor's ``SlotRecord`` does not: attributes that came as a
/// map of names (Keel's API, like Backbone's, takes one), read by name (the id is the value
/// under `"id"`, `coll_sort`'s key the value under its comparator's attribute), and a
/// client id from birth (`model.cid`), by which its collection finds it. The record adopts
/// the map it is made from, as a Keel model adopts the `Attributes` value it is given, and
/// finds a key by comparing names. Changes go to the collection by the attribute's name, as
/// the model's `change:<name>` events reach its collection (`coll_sort`'s shuffle is silent,
/// ``store(_:named:)``). The models of these workloads have no handlers of their own and are
/// not observed (Keel makes a model's registrar on its first observed read, and a sort reads
/// the keys unobserved), so a change reports nothing else.
final class NamedRecord {
    /// The attributes, in order.
    @exclusivity(unchecked) private(set) var attributes: PlainPairs
    /// The client id, from ``ClientIDs``.
    let cid: Int
    /// Whether the running `set` of the collection kept the record: the floor's own
    /// bookkeeping of a merge, cleared before the `set` returns.
    @exclusivity(unchecked) var isKept = false
    /// The collection holding the record.
    ///
    /// Not counted: the collection clears the link when it lets the record go.
    @exclusivity(unchecked) unowned(unsafe) var collection: NamedCollection?
    /// The removal list holding the record (``NamedRemovalList``): what ``collection`` is for
    /// a record of a ``NamedCollection``, and what a Keel model's `collection` is.
    ///
    /// Not counted, for the reason ``collection`` is not.
    @exclusivity(unchecked) unowned(unsafe) var list: NamedRemovalList?

    /// A record of an attribute map, which it adopts.
    init(_ attributes: PlainPairs) {
        self.attributes = attributes
        cid = ClientIDs.next()
    }

    /// The integer under `"id"`, or `nil`.
    @inline(__always)
    var id: Int? { Self.id(in: attributes) }

    /// The integer under `"id"` in a map, found by name.
    @inline(__always)
    static func id(in attributes: PlainPairs) -> Int? {
        attributes.withUnsafeBufferPointer { pairs in
            for pair in pairs where pair.key == "id" { return pair.value.intValue }
            return nil
        }
    }

    /// The integer under `key`, found by name, or `nil`.
    @inline(__always)
    func int(named key: String) -> Int? {
        var position = 0
        return int(named: key, from: &position)
    }

    /// The integer under `key`, found by name, or `nil`; the name is compared first at
    /// `position`, which is then set to where the key was found.
    ///
    /// A loop over records made from maps of the same keys passes one position along, so each
    /// record's key is usually found by one comparison that matches (which a string decides in
    /// place).
    @inline(__always)
    func int(named key: String, from position: inout Int) -> Int? {
        let count = attributes.count
        if position < count, attributes[position].key == key { return attributes[position].value.intValue }
        for index in 0..<count where attributes[index].key == key {
            position = index
            return attributes[index].value.intValue
        }
        return nil
    }

    /// Stores `value` under `key`, found by name (a new key is appended), telling no one: a
    /// silent `set`.
    func store(_ value: PlainValue, named key: String) {
        if let index = attributes.firstIndex(where: { $0.key == key }) {
            attributes[index].value = value
        } else {
            attributes.append((key, value))
        }
    }

    /// Stores each value of `input` that differs under its key, found by name (a new key is
    /// appended), telling the collection of each by name, then of the change if there was any.
    func merge(_ input: PlainPairs) {
        var changed = false
        for (key, value) in input {
            if let index = attributes.firstIndex(where: { $0.key == key }) {
                guard attributes[index].value != value else { continue }
                attributes[index].value = value
            } else {
                attributes.append((key, value))
            }
            changed = true
            collection?.recordDidChange(self, attribute: key, value: value)
        }
        if changed { collection?.recordDidChange(self) }
    }
}
