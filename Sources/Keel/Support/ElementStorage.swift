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
/// is freed, this storage releases a ``JSONValue`` (or an object's key and value) through
/// ``JSONReleaseQueue``: arrays and objects nested inside are freed one after another, so
/// freeing a value nested any number of levels deep takes no more stack than freeing a flat
/// one.
final class ElementStorage<Element>: ManagedBuffer<ElementStorageHeader, Element> {
    /// Creates empty storage with room for exactly `capacity` elements.
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
    var count: Int {
        get { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.count = newValue } }
    }

    /// The number of elements there is room for (`capacity` would ask `malloc`).
    var elementCapacity: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity }
    }

    deinit {
        let count = self.count
        guard count > 0 else { return }
        let elements = self.elements
        if Element.self == JSONValue.self {
            JSONReleaseQueue.release(
                UnsafeMutableRawPointer(elements).assumingMemoryBound(to: JSONValue.self),
                count: count
            )
        } else if Element.self == JSONObject.Element.self {
            JSONReleaseQueue.release(
                UnsafeMutableRawPointer(elements).assumingMemoryBound(to: JSONObject.Element.self),
                count: count
            )
        } else {
            elements.deinitialize(count: count)
        }
    }
}
