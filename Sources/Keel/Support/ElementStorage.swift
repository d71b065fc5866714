/// How many elements an ``ElementStorage`` holds and has room for, and the hash index of the
/// map whose entries they are.
///
/// Two 32-bit counts and a reference: the header stays two words while an
/// ``OrderedStringMap`` (a ``JSONObject``) keeps its hash index here, so that the map itself is
/// one word.
struct ElementStorageHeader {
    /// The initialized elements, at the start of the storage.
    var count: Int32
    /// The elements the storage has room for.
    var capacity: Int32
    /// The hash index of the ``OrderedStringMap`` whose entries these are, past its
    /// ``OrderedStringMap/linearSearchLimit``; `nil` for smaller maps and for arrays.
    var keyStamps: KeyStamps?
}

/// The heap storage of an ``ElementBuffer``: a header and the elements, in one allocation.
///
/// The instance is of a subclass that knows how to free the elements: ``JSONValueStorage``
/// and ``JSONEntryStorage`` hand JSON values to ``JSONReleaseQueue``, which frees nested
/// arrays and objects one after another rather than by recursion (as the storage of a Swift
/// `Array` would); ``GenericElementStorage`` deinitializes any other elements.
typealias ElementStorage<Element> = ManagedBuffer<ElementStorageHeader, Element>

extension ManagedBuffer where Header == ElementStorageHeader {
    /// Creates empty storage with room for exactly `capacity` elements, of the subclass
    /// that frees `Element`s.
    @inline(__always)
    static func make(capacity: Int) -> ManagedBuffer {
        let storageClass: ManagedBuffer.Type
        if Element.self == JSONValue.self {
            storageClass = unsafeBitCast(JSONValueStorage.self, to: ManagedBuffer.Type.self)
        } else if Element.self == JSONObject.Element.self {
            storageClass = unsafeBitCast(JSONEntryStorage.self, to: ManagedBuffer.Type.self)
        } else {
            storageClass = GenericElementStorage<Element>.self
        }
        precondition(capacity <= Int(Int32.max), "An array or object holds at most \(Int32.max) elements")
        return storageClass.create(minimumCapacity: capacity) { _ in
            ElementStorageHeader(count: 0, capacity: Int32(truncatingIfNeeded: capacity))
        }
    }

    /// The address of the first element; valid while the storage is alive.
    var elements: UnsafeMutablePointer<Element> {
        withUnsafeMutablePointerToElements { $0 }
    }

    /// The number of initialized elements.
    ///
    /// Read and written through the header's address: the `header` property of a class is
    /// checked for exclusive access at run time on every use.
    var elementCount: Int {
        get { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.count = Int32(truncatingIfNeeded: newValue) } }
    }

    /// The number of elements there is room for (`capacity` would ask `malloc`).
    var elementCapacity: Int {
        withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) }
    }

    /// The hash index of the map whose entries these are (``ElementStorageHeader/keyStamps``).
    ///
    /// Set only on storage that no other buffer shares.
    var keyStamps: KeyStamps? {
        get { withUnsafeMutablePointerToHeader { $0.pointee.keyStamps } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.keyStamps = newValue } }
    }

    /// Whether the storage has a hash index (``keyStamps``), read without a reference count.
    var hasKeyStamps: Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.keyStamps != nil }
    }

    /// Whether no other storage shares ``keyStamps``, which must exist.
    var hasUniqueKeyStamps: Bool {
        withUnsafeMutablePointerToHeader { isKnownUniquelyReferenced(&$0.pointee.keyStamps) }
    }
}

/// Storage of JSON values (a ``JSONArray``), freed through ``JSONReleaseQueue``.
final class JSONValueStorage: ManagedBuffer<ElementStorageHeader, JSONValue> {
    deinit {
        let count = elementCount
        if count > 0 { JSONReleaseQueue.release(elements, count: count) }
    }
}

/// Storage of the keys and values of a ``JSONObject``, freed through ``JSONReleaseQueue``.
final class JSONEntryStorage: ManagedBuffer<ElementStorageHeader, JSONObject.Element> {
    deinit {
        let count = elementCount
        if count > 0 { JSONReleaseQueue.release(elements, count: count) }
    }
}

/// Storage of any other elements, deinitialized in order.
final class GenericElementStorage<Element>: ManagedBuffer<ElementStorageHeader, Element> {
    deinit {
        elements.deinitialize(count: elementCount)
    }
}
