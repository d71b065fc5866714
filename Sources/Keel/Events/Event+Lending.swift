// MARK: - Lent change events

extension Event {
    /// Runs `body` with a model's `change:<attribute>` or `change` event whose name, model, value
    /// and context are lent by their owners, not retained: the event takes no reference count
    /// when it is built and releases nothing when `body` returns.
    ///
    /// Building an event retains what it holds and destroying it releases that again: for a
    /// `set` with a `change:<attribute>` and a `change` handler, the model twice, the name and the
    /// context, about a sixth of the `set`. A lent event holds bitwise copies of its parts that
    /// own nothing (the model is taken as if retained, ``Unmanaged/takeRetainedValue()``, the
    /// other parts are moved out of a copy of their bits), and is moved into a temporary
    /// allocation when `body` returns, which is given up without destroying it: what the event
    /// did not retain is not released.
    ///
    /// A handler that keeps the event, or anything in it, copies it, and a copy retains what it
    /// holds, as the copy of any event does: the kept event is as good as one built the ordinary
    /// way. The caller guarantees that each part stays alive and unchanged while `body` runs:
    /// the model is the emitter that dispatches, the name a key of its handler tables (kept as
    /// they are until the dispatch ends, ``EmitterState/retireIfDispatching()``), the value one
    /// that holds no reference, and the context its `set`'s own.
    ///
    /// The temporaries are unprotected (no stack protector in the caller): they hold the bits of
    /// one value each, never data of a length that comes from outside.
    ///
    /// - Parameters:
    ///   - name: The event's name, where its owner keeps it.
    ///   - model: The model the event is about.
    ///   - value: The new value, for `change:<attribute>`, or `nil` for `change`.
    ///   - context: What the event carries of its `set`'s options (``Context/init(options:)``).
    ///   - body: What receives the event.
    @inline(__always)
    static func lendingChange(
        named name: UnsafePointer<String>,
        model: Unmanaged<Model>,
        value: UnsafePointer<JSONValue>?,
        context: UnsafePointer<Context?>,
        to body: (Event) -> Void
    ) {
        _withUnprotectedUnsafeTemporaryAllocation(of: Event.self, capacity: 1) { end in
            let event = Event(
                changeNamed: unownedCopy(of: name),
                model: model.takeRetainedValue(),
                value: value.map { unownedCopy(of: $0) },
                context: unownedCopy(of: context)
            )
            body(event)
            // Moved here, the event is not destroyed: it owns nothing to release.
            end.baseAddress.unsafelyUnwrapped.initialize(to: consume event)
        }
    }
}

// MARK: - Lent collection events

extension Event {
    /// Runs `body` with a collection's event about one of its models at `index`, such as
    /// `remove`, whose model and collection are lent by their owners, not retained: the event
    /// takes no reference count when it is built and releases nothing when `body` returns.
    ///
    /// As ``lendingChange(named:model:value:context:to:)`` lends a change event: the event holds
    /// the model and the collection as if retained (``Unmanaged/takeRetainedValue()``), and is
    /// moved into a temporary allocation when `body` returns, which is given up without
    /// destroying it. A handler that keeps the event copies it, and the copy retains what it
    /// holds. The caller guarantees that the model and the collection stay alive while `body`
    /// runs. The name is a literal, which counts no references: it is not lent but taken as it
    /// is, and not releasing it leaks nothing.
    ///
    /// - Parameters:
    ///   - name: The event's name, a literal.
    ///   - model: The model the event is about.
    ///   - collection: The collection firing it.
    ///   - index: The model's position (``index``).
    ///   - body: What receives the event.
    @inline(__always)
    static func lendingCollectionEvent(
        named name: String,
        model: Unmanaged<Model>,
        collection: Unmanaged<EventEmitter>,
        index: Int,
        to body: (Event) -> Void
    ) {
        _withUnprotectedUnsafeTemporaryAllocation(of: Event.self, capacity: 1) { end in
            let event = Event(
                name: name,
                model: model.takeRetainedValue(),
                index: nil,
                context: .collectionAt(collection.takeRetainedValue(), index: index)
            )
            body(event)
            // Moved here, the event is not destroyed: it owns nothing to release.
            end.baseAddress.unsafelyUnwrapped.initialize(to: consume event)
        }
    }
}

/// A bitwise copy of the value at `source` that owns nothing: the bits are copied into a
/// temporary, and moved out of it, so that no reference count is taken.
///
/// Only for ``Event/lendingChange(named:model:value:context:to:)``, which ends the copy without
/// destroying it.
@inline(__always)
private func unownedCopy<Value>(of source: UnsafePointer<Value>) -> Value {
    _withUnprotectedUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
        let copy = buffer.baseAddress.unsafelyUnwrapped
        UnsafeMutableRawPointer(copy).copyMemory(from: source, byteCount: MemoryLayout<Value>.size)
        return copy.move()
    }
}
