/// A record read from a resource object, assembled in storage of its own sized up front: the
/// resource's `attributes` copied once, then the members the reader adds (the id, foreign
/// keys, linked records), each written over an attribute of the same name or after the
/// others, in place.
///
/// Copying the attributes with room to spare and then adding each member through a
/// ``JSONObject`` subscript checked the record's storage and its hash index once more for
/// every member added.
struct JSONAPIRecordBuilder {
    private var storage: ElementStorage<JSONObject.Element>

    /// A record holding the members of the object at `attributes`, with room for `extra` more.
    ///
    /// The object is read where it lies, and the storage filled before it is stored: passing
    /// the object by value retained and released it, and filling the stored storage retained
    /// and released that.
    init(attributesAt attributes: UnsafePointer<JSONObject>, extra: Int) {
        let count = attributes.pointee.count
        let made = ElementStorage<JSONObject.Element>.make(capacity: count + extra)
        let entries = made.elements
        for position in 0..<count {
            (entries + position).initialize(
                to: (
                    attributes.pointee.keyAddress(at: position).pointee,
                    attributes.pointee.valueAddress(at: position).pointee
                )
            )
        }
        made.elementCount = count
        storage = made
    }

    /// Sets `value` under `key`: over the member of that name, else after the others.
    ///
    /// The value is taken, not copied: every value the reader sets is one it made for the
    /// record. Inlined: a call per member passed the value and retained the key through calls.
    @inline(__always)
    mutating func set(_ value: consuming JSONValue, for key: String) {
        let count = storage.elementCount
        let entries = storage.elements
        for position in 0..<count where StringIdentity.equal(entries[position].key, key) {
            entries[position].value = value
            return
        }
        if count == storage.elementCapacity { grow() }
        (storage.elements + count).initialize(to: (key, value))
        storage.elementCount = count + 1
    }

    /// Moves the members to storage of twice the room: only when a class's relations add
    /// more members than the resource has relationships.
    private mutating func grow() {
        let count = storage.elementCount
        let larger = ElementStorage<JSONObject.Element>.make(capacity: max(4, 2 * count))
        larger.elements.moveInitialize(from: storage.elements, count: count)
        storage.elementCount = 0
        larger.elementCount = count
        storage = larger
    }

    /// The record assembled.
    consuming func record() -> JSONObject {
        JSONObject(uncheckedUniqueEntries: ElementBuffer(adopting: storage))
    }
}
