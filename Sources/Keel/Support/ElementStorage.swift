/// How many elements an ``ElementStorage`` holds and has room for.
///
/// Two 32-bit counts, one word: the elements start 24 bytes into the object, right after
/// the object's own two words. The hash index of a large map is not here but in a word after
/// the elements (``ManagedBuffer/keyStamps``), which only storage with room for more than
/// ``ElementStorageHeader/smallCapacity`` elements has: a model's attributes, a small JSON
/// object and a short array each take 8 bytes less, often one `malloc` size class less.
struct ElementStorageHeader {
    /// The initialized elements, at the start of the storage.
    var count: Int32
    /// The elements the storage has room for.
    var capacity: Int32

    /// The most elements storage can have room for without a word for a hash index after
    /// them; ``OrderedStringMap/linearSearchLimit``, past which a map keeps one.
    static var smallCapacity: Int { 12 }
}

/// The heap storage of an ``ElementBuffer``: a header and the elements, in one allocation,
/// followed, when it has room for more than ``ElementStorageHeader/smallCapacity`` elements,
/// by the hash index of the map whose entries they are (``ManagedBuffer/keyStamps``).
///
/// The instance is of a subclass that knows how to free the elements: ``JSONValueStorage``
/// and ``JSONEntryStorage`` hand JSON values to ``JSONReleaseQueue``, which frees nested
/// arrays and objects one after another rather than by recursion (as the storage of a Swift
/// `Array` would); ``GenericElementStorage`` deinitializes any other elements.
typealias ElementStorage<Element> = ManagedBuffer<ElementStorageHeader, Element>

extension ManagedBuffer where Header == ElementStorageHeader {
    /// Creates empty storage with room for exactly `capacity` elements, of the subclass
    /// that frees `Element`s, with an empty hash index slot after them when `capacity` is
    /// past ``ElementStorageHeader/smallCapacity``.
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
        let hasStampSlot = capacity > ElementStorageHeader.smallCapacity
        let room = hasStampSlot ? capacity + stampSlotElements : capacity
        let storage = storageClass.create(minimumCapacity: room) { _ in
            ElementStorageHeader(count: 0, capacity: Int32(truncatingIfNeeded: capacity))
        }
        if hasStampSlot { storage.stampSlot.initialize(to: nil) }
        return storage
    }

    /// How many elements' room holds the hash index slot, aligned, after the elements.
    @inline(__always)
    private static var stampSlotElements: Int {
        let needed = MemoryLayout<KeyStamps?>.size + MemoryLayout<KeyStamps?>.alignment - 1
        return (needed + MemoryLayout<Element>.stride - 1) / MemoryLayout<Element>.stride
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
    @inline(__always)
    var elementCapacity: Int {
        withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) }
    }

    /// Whether the storage has the hash index slot after its elements: room for more than
    /// ``ElementStorageHeader/smallCapacity`` elements.
    @inline(__always)
    private var hasStampSlot: Bool { elementCapacity > ElementStorageHeader.smallCapacity }

    /// The hash index slot after the elements; the storage must have one (``hasStampSlot``).
    @inline(__always)
    private var stampSlot: UnsafeMutablePointer<KeyStamps?> {
        Self.stampSlot(after: elements, capacity: elementCapacity)
    }

    /// The hash index slot of storage whose elements are at `elements`, with room for
    /// `capacity` of them (more than ``ElementStorageHeader/smallCapacity``): for a caller
    /// that holds the storage without a reference count, which would retain it to ask.
    @inline(__always)
    static func stampSlot(
        after elements: UnsafeMutablePointer<Element>,
        capacity: Int
    ) -> UnsafeMutablePointer<KeyStamps?> {
        UnsafeMutableRawPointer(elements + capacity)
            .alignedUp(for: KeyStamps?.self)
            .assumingMemoryBound(to: KeyStamps?.self)
    }

    /// The hash index of the map whose entries these are, for maps past
    /// ``OrderedStringMap/linearSearchLimit`` entries; `nil` for smaller maps and for arrays.
    ///
    /// Set only on storage that no other buffer shares; a non-`nil` index only on storage
    /// with room for more than ``ElementStorageHeader/smallCapacity`` elements (a map that
    /// large has it).
    var keyStamps: KeyStamps? {
        get { hasStampSlot ? stampSlot.pointee : nil }
        set {
            guard hasStampSlot else {
                precondition(newValue == nil, "A hash index needs storage past the small capacity")
                return
            }
            stampSlot.pointee = newValue
        }
    }

    /// Whether the storage has a hash index (``keyStamps``), read without a reference count.
    @inline(__always)
    var hasKeyStamps: Bool {
        hasStampSlot && stampSlot.pointee != nil
    }

    /// Whether no other storage shares ``keyStamps``, which must exist.
    var hasUniqueKeyStamps: Bool {
        isKnownUniquelyReferenced(&stampSlot.pointee)
    }

    /// Frees the hash index, when the storage has its slot: for the subclasses' `deinit`.
    @inline(__always)
    fileprivate func destroyStampSlot() {
        if hasStampSlot { stampSlot.deinitialize(count: 1) }
    }
}

/// Storage of JSON values (a ``JSONArray``), freed through ``JSONReleaseQueue``.
final class JSONValueStorage: ManagedBuffer<ElementStorageHeader, JSONValue> {
    deinit {
        let count = elementCount
        if count > 0 { JSONReleaseQueue.release(elements, count: count) }
        destroyStampSlot()
    }
}

/// Storage of the keys and values of a ``JSONObject``, freed through ``JSONReleaseQueue``.
final class JSONEntryStorage: ManagedBuffer<ElementStorageHeader, JSONObject.Element> {
    deinit {
        let count = elementCount
        if count > 0 { JSONReleaseQueue.release(elements, count: count) }
        destroyStampSlot()
    }
}

/// Storage of any other elements, deinitialized in order.
final class GenericElementStorage<Element>: ManagedBuffer<ElementStorageHeader, Element> {
    deinit {
        elements.deinitialize(count: elementCount)
        destroyStampSlot()
    }
}
