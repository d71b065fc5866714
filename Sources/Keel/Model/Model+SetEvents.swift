// MARK: - The events of a change

extension Model {
    /// Dispatches a `change:<attribute>` or `change` event with these fields to `target`
    /// (found by ``EventEmitter/changeEventTarget(named:)`` with no handler run since), or,
    /// when it is `nil`, to the handlers of its name.
    ///
    /// The event references the change record's ``ChangeEventStorage``, written in place, so
    /// that building and destroying it is a retain and a release; a handler that keeps the
    /// event keeps this change's fields, and the next event gets storage of its own.
    @inline(__always)
    func dispatchChange(
        named name: String,
        value: JSONValue?,
        options: consuming ChangeOptions,
        to target: ChangeEventTarget?
    ) {
        if storedChangeRecord == nil { _ = changeRecord }
        // The record is created once and kept for the model's life, so it is lent.
        let record = Unmanaged.passUnretained(storedChangeRecord.unsafelyUnwrapped)
        var storage = record._withUnsafeGuaranteedRef { $0.takeChangeEventStorage(of: self, named: name, value: value) }
        // Moved in here, outside the closure, which would copy them.
        storage.options = options
        if let target {
            dispatch(Event(change: storage), to: target)
        } else {
            dispatch(Event(change: storage))
        }
        record._withUnsafeGuaranteedRef { $0.returnChangeEventStorage(&storage) }
    }
}
