/// Reads the integer sort keys of an attribute comparator.
enum IntegerKeys {
    /// The values of attribute `name` of `models`, when every one is an
    /// ``JSONValue/int(_:)``, or `nil` when one is not.
    ///
    /// Reads each value by its layout slot, found again only when the layout changes from
    /// one model to the next, and copies no `JSONValue`: models of one shape cost a load
    /// and a compare each.
    static func read(attribute name: String, of models: UnsafeBufferPointer<Model>) -> ContiguousArray<Int>? {
        var keys = ContiguousArray<Int>()
        keys.reserveCapacity(models.count)
        var layout = Unmanaged.passUnretained(AttributeLayout.empty)
        var slot = layout.takeUnretainedValue().slot(of: name)
        for index in models.indices {
            let model = Unmanaged.passUnretained(models[index])
            let found = model._withUnsafeGuaranteedRef { model -> Bool in
                if model.layout !== layout.takeUnretainedValue() {
                    layout = Unmanaged.passUnretained(model.layout)
                    slot = model.layout.slot(of: name)
                }
                guard let slot, case .int(let key) = model.storage.value(at: slot) else { return false }
                keys.append(key)
                return true
            }
            guard found else { return nil }
        }
        return keys
    }
}
