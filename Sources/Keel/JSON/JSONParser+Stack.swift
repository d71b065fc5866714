extension JSONParser {
    /// A growable stack in manually managed memory, whose top elements can be moved out in
    /// bulk, without the copying and releasing that slicing an `Array` costs.
    struct Stack<Element>: ~Copyable {
        private var base: UnsafeMutablePointer<Element>
        private var capacity: Int
        private(set) var count = 0

        init() {
            capacity = 32
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        /// The top element, read in place; the stack must not be empty.
        var top: Element {
            _read {
                precondition(count > 0, "top of an empty stack")
                yield base[count - 1]
            }
        }

        /// Changes the top element in place.
        mutating func updateLast(_ body: (inout Element) -> Void) {
            guard count > 0 else { return }
            body(&base[count - 1])
        }

        mutating func push(_ element: consuming Element) {
            if count == capacity {
                let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
                base = grown
                capacity *= 2
            }
            (base + count).initialize(to: element)
            count += 1
        }

        /// Moves the top element out; the stack must not be empty.
        mutating func popLast() -> Element {
            precondition(count > 0, "pop from an empty stack")
            count -= 1
            return (base + count).move()
        }

        /// Moves the elements from `start` on into new storage.
        mutating func popElements(from start: Int) -> ElementBuffer<Element> {
            let moved = count - start
            count = start
            let elements = ElementBuffer<Element>(minimumCapacity: moved)
            if let storage = elements.storage {
                storage.elements.moveInitialize(from: base + start, count: moved)
                storage.elementCount = moved
            }
            return elements
        }
    }
}

extension JSONParser.Stack where Element == JSONObject.Element {
    /// Moves the keys and values from `start` on into a new object; `keysAreDistinct` skips
    /// the search for repeated keys.
    mutating func popObject(from start: Int, keysAreDistinct: Bool) -> JSONObject {
        if keysAreDistinct { return JSONObject(uncheckedUniqueEntries: popElements(from: start)) }
        let moved = count - start
        count = start
        return JSONObject(
            uniqueKeysWithLastValues: JSONParser.MovingSequence(pointer: base + start, remaining: moved).lazy.map {
                ($0.key, $0.value)
            }
        )
    }
}

extension JSONParser {
    /// Hands out elements by moving them out of memory, so each must be taken exactly once:
    /// the sequence must be iterated to the end, once (as `JSONObject`'s initializer does).
    struct MovingSequence<Element>: Sequence, IteratorProtocol {
        var pointer: UnsafeMutablePointer<Element>
        var remaining: Int

        var underestimatedCount: Int { remaining }

        mutating func next() -> Element? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            defer { pointer += 1 }
            return pointer.move()
        }
    }
}
