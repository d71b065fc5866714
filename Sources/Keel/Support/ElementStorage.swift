/// How many elements an ``ElementStorage`` holds and has room for.
struct ElementStorageHeader {
    /// The initialized elements, at the start of the storage.
    var count: Int
    /// The elements the storage has room for.
    var capacity: Int
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
        return storageClass.create(minimumCapacity: capacity) { _ in
            ElementStorageHeader(count: 0, capacity: capacity)
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
        get { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.count = newValue } }
    }

    /// The number of elements there is room for (`capacity` would ask `malloc`).
    var elementCapacity: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity }
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
