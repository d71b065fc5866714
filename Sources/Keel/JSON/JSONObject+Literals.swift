extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, keeping the keys in the order written.
    ///
    /// ```swift
    /// let attributes: JSONObject = ["title": "Dune", "year": 1965]
    /// ```
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(literal: elements)
    }

    /// Creates an object from the elements of a literal: a later duplicate key replaces the earlier
    /// value in the earlier position.
    ///
    /// Small literals are searched for duplicates linearly, comparing the keys' bits first
    /// (``StringIdentity``).
    ///
    /// A small literal built at run time (values that are not constants) comes in an array
    /// that only this call holds: its elements are moved out, from the last, so that freeing
    /// the array destroys none (which goes through the runtime's generic tuple witness, about
    /// a hundred instructions per element). A constant literal's array is a static object,
    /// shared by every evaluation, and is copied from.
    init(literal elements: consuming [(String, JSONValue)]) {
        if elements.isEmpty {
            self.init()
            return
        }
        guard elements.count <= OrderedStringMap<JSONValue>.linearSearchLimit else {
            self.init(uniqueKeysWithLastValues: elements)
            return
        }
        // Written straight into new storage of the literal's size, which nothing else sees yet.
        let storage = ElementStorage<Element>.make(capacity: elements.count)
        let entries = storage.elements
        if Self.canTakeElements(of: &elements) {
            let count = elements.count
            var position = count
            while let element = elements.popLast() {
                position -= 1
                (entries + position).initialize(to: (element.0, element.1))
            }
            storage.elementCount = count
            self.init(uncheckedUniqueEntries: ElementBuffer(adopting: storage))
            return
        }
        var count = 0
        elements.withUnsafeBufferPointer { source in
            for element in source {
                let found = StringIdentity.position(
                    of: element.0,
                    in: UnsafeBufferPointer(start: entries, count: count)
                )
                if let found {
                    entries[found].value = element.1
                } else {
                    (entries + count).initialize(to: (element.0, element.1))
                    count += 1
                }
            }
        }
        storage.elementCount = count
        self.init(uncheckedUniqueEntries: ElementBuffer(adopting: storage))
    }
}

extension JSONObject {
    /// Whether the elements of a literal can be moved out of its array one by one: nothing
    /// else holds the array (see ``Swift/Array/isHeldAlone()``) and its keys are distinct.
    @inline(__always)
    private static func canTakeElements(of elements: inout [(String, JSONValue)]) -> Bool {
        guard elements.isHeldAlone() else { return false }
        return elements.withUnsafeBufferPointer { source in
            for offset in source.indices {
                for earlier in 0..<offset where StringIdentity.equal(source[earlier].0, source[offset].0) {
                    return false
                }
            }
            return true
        }
    }
}
