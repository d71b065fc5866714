/// How many elements an ``ElementStorage`` holds and has room for.
struct ElementStorageHeader {
    /// The initialized elements, at the start of the storage.
    var count: Int
    /// The elements the storage has room for.
    var capacity: Int
}

/// The heap storage of an ``ElementBuffer``: a header and the elements, in one allocation.
///
/// Unlike the storage of a Swift `Array`, whose elements are released by recursion when it
/// is freed, this storage hands JSON values (and an object's keys and values) to
/// ``JSONReleaseQueue``, which frees nested arrays and objects one after another: freeing a
/// value nested any number of levels deep takes no more stack than freeing a flat one.
final class ElementStorage<Element>: ManagedBuffer<ElementStorageHeader, Element> {
    /// Creates empty storage with room for exactly `capacity` elements.
    @inline(__always)
    static func make(capacity: Int) -> ElementStorage {
        let buffer = create(minimumCapacity: capacity) { _ in ElementStorageHeader(count: 0, capacity: capacity) }
        return unsafeDowncast(buffer, to: ElementStorage.self)
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

    deinit {
        let count = elementCount
        guard count > 0 else { return }
        let elements = UnsafeMutableRawPointer(self.elements)
        if Element.self == JSONValue.self {
            JSONReleaseQueue.release(elements.assumingMemoryBound(to: JSONValue.self), count: count)
        } else if Element.self == JSONObject.Element.self {
            JSONReleaseQueue.release(elements.assumingMemoryBound(to: JSONObject.Element.self), count: count)
        } else {
            elements.assumingMemoryBound(to: Element.self).deinitialize(count: count)
        }
    }
}
