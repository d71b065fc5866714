// MARK: - The change events of a one-attribute set

extension Model {
    /// Fires the `change:<key>` event for the attribute in `slot`, which the current `set`
    /// changed, with its new value and `context` (what it carries of the `set`'s options), when
    /// a handler will receive it (``EventEmitter/changeEventTarget(named:)``): otherwise nothing
    /// is built.
    ///
    /// When the model has handlers of the name and the value holds no reference (`null`, a
    /// Boolean, a number), the event is lent (``lendChangeEvent(to:at:value:context:)``), with the
    /// context's address taken without a stack protector, which every `set` would pay for.
    /// Otherwise it is built with the layout lent, and fired after: a handler may move the
    /// model to another layout.
    @inline(__always)
    func dispatchChangeEvent(atSlot slot: Int, context: borrowing Event.Context?) {
        let layout = Unmanaged.passUnretained(layout)
        let target = layout._withUnsafeGuaranteedRef { changeEventTarget(named: $0.changeEventNames[slot]) }
        switch target {
        case .nowhere:
            return
        case .handlers(let state, let position?):
            guard let value = referenceFreeValue(atSlot: slot) else { break }
            _withUnprotectedUnsafePointer(to: context) {
                lendChangeEvent(to: state, at: position, value: value, context: $0)
            }
            return
        case .handlers, .collection, .forwarder:
            break
        }
        let event = layout._withUnsafeGuaranteedRef { layout in
            Event(
                changeNamed: layout.changeEventNames[slot],
                model: self,
                value: storage.value(at: slot),
                context: copy context
            )
        }
        dispatch(event, to: target)
    }

    /// Dispatches a change event of this model, lent (``Event/lendingChange(named:model:value:context:to:)``),
    /// to the handlers at `position` in `state` and the `all` handlers, as ``EventEmitter/dispatchInline(_:in:at:)``
    /// does: the event's name is the key of those handlers, which the tables keep while the
    /// dispatch runs.
    ///
    /// - Parameters:
    ///   - state: The model's handler state (``ChangeEventTarget/handlers(_:at:)``).
    ///   - position: The position of the event's name in the state's handlers.
    ///   - value: The new value, holding no reference, for `change:<attribute>`; `nil` for `change`.
    ///   - context: What the event carries of its `set`'s options, kept by the caller.
    @inline(__always)
    func lendChangeEvent(
        to state: Unmanaged<EmitterState>,
        at position: Int,
        value: UnsafePointer<JSONValue>?,
        context: UnsafePointer<Event.Context?>
    ) {
        state._withUnsafeGuaranteedRef { state in
            let name = Self.nameAddress(at: position, in: &state.handlers)
            Event.lendingChange(named: name, model: Unmanaged.passUnretained(self), value: value, context: context) {
                dispatchInline($0, in: state, at: position)
            }
        }
    }

    /// The address of the value in `slot` when it holds no reference (`null`, a Boolean, a
    /// number), so that an event may carry its bits without owning them; `nil` otherwise.
    ///
    /// The case is tested in place, where the storage keeps the value.
    @inline(__always)
    private func referenceFreeValue(atSlot slot: Int) -> UnsafePointer<JSONValue>? {
        let entry = UnsafeRawPointer(storage.valueAddress(at: slot))
        let value = entry.assumingMemoryBound(to: JSONValue.self)
        switch value.pointee {
        case .null, .bool, .int, .double: return value
        case .string, .array, .object: return nil
        }
    }
}
