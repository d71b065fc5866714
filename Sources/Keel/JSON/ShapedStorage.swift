/// The storage of a *shaped* ``JSONObject``: the values alone, in the slot order of a shared
/// ``AttributeLayout``, which holds the keys.
///
/// A model's attributes come out shaped where Keel writes a fresh storage for them anyway and
/// the layout of their keys already exists (``JSONObject/init(merging:with:)``, a model's
/// `defaults` merged with the attributes it is built with): every model with those keys shares
/// them, so each keeps 24 bytes a value where the entries form keeps 40 (a key and a value).
///
/// The class shares the entries' storage class's header and element type, so that a
/// ``JSONObject`` stays one word holding either: the header's `count` is the number of values
/// and its `capacity` is negative (``marker``), which no entries' storage has, and the tail
/// holds the layout (a shared one, held without a reference count) followed by the values,
/// not entries. Only ``JSONObject`` reads it, after testing the marker; a negative capacity
/// is never past ``ElementStorageHeader/smallCapacity``, so the storage is never taken for
/// one with a hash index slot.
final class ShapedStorage: ManagedBuffer<ElementStorageHeader, JSONObject.Element> {
    /// The header's `capacity` of shaped storage, which no entries' storage has.
    static var marker: Int32 { -1 }

    /// Where the values start in the tail: after the layout's reference.
    private static var valuesOffset: Int { MemoryLayout<UnsafeRawPointer>.stride }

    /// New storage for the values of `layout`'s keys, which the caller initializes, all of
    /// them, before anything reads or frees the storage.
    ///
    /// `layout` must be shared (``AttributeLayout/isShared``): shared layouts live as long as
    /// the process, so the storage holds it without a reference count, and building and
    /// freeing a model's attributes touches no count of a layout that every thread's models
    /// share.
    static func make(layout: Unmanaged<AttributeLayout>) -> ShapedStorage {
        let count = layout._withUnsafeGuaranteedRef { layout in
            precondition(layout.isShared, "Only a shared layout lives as long as the process")
            return layout.count
        }
        let bytes = valuesOffset + count * MemoryLayout<JSONValue>.stride
        let entryStride = MemoryLayout<JSONObject.Element>.stride
        // The tail is counted in entries: 8 values take 5 entries' room, 200 bytes.
        let made = unsafeDowncast(
            create(minimumCapacity: (bytes + entryStride - 1) / entryStride) { _ in
                ElementStorageHeader(count: Int32(truncatingIfNeeded: count), capacity: marker)
            },
            to: ShapedStorage.self
        )
        let tail = made.tail
        tail.storeBytes(of: layout.toOpaque(), as: UnsafeMutableRawPointer.self)
        (tail + valuesOffset).bindMemory(to: JSONValue.self, capacity: count)
        return made
    }

    /// The start of the tail.
    @inline(__always)
    private var tail: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
    }

    /// The number of values, the layout's number of keys.
    @inline(__always)
    var valueCount: Int {
        withUnsafeMutablePointerToHeader { Int($0.pointee.count) }
    }

    /// The layout, lent: a shared layout lives as long as the process.
    @inline(__always)
    var lentLayout: Unmanaged<AttributeLayout> {
        Unmanaged.fromOpaque(tail.load(as: UnsafeRawPointer.self))
    }

    /// The address of the first value.
    @inline(__always)
    var values: UnsafeMutablePointer<JSONValue> {
        (tail + Self.valuesOffset).assumingMemoryBound(to: JSONValue.self)
    }

    /// The address of the first key, in the layout: valid while the storage lives.
    @inline(__always)
    var keys: UnsafePointer<String> {
        lentLayout._withUnsafeGuaranteedRef { layout in
            layout.keys.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped }
        }
    }

    /// Says that no values are left to release: set before the values are moved out.
    func forgetValues() {
        withUnsafeMutablePointerToHeader { $0.pointee.count = 0 }
    }

    /// New storage with the layout and values of this one.
    func copy() -> ShapedStorage {
        let copy = ShapedStorage.make(layout: lentLayout)
        let target = copy.values
        let values = self.values
        for position in 0..<valueCount { (target + position).initialize(to: values[position]) }
        return copy
    }

    deinit {
        let count = valueCount
        if count > 0 { JSONReleaseQueue.release(values, count: count) }
    }
}

extension ManagedBuffer where Header == ElementStorageHeader, Element == JSONObject.Element {
    /// Whether this is a ``ShapedStorage``, told by its header's negative capacity.
    @inline(__always)
    var isShaped: Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity < 0 }
    }
}
