extension IdentityMap {
    /// Whether setting `record` on the live `model`, with `options`, would change nothing.
    ///
    /// Nothing at all: no value, no event, no bookkeeping. The map then leaves the `set` out.
    /// A record embedded in many others (the author of every post of a page) reaches the map
    /// once per record that embeds it, most often just as the model already holds it. A `set`
    /// that changes nothing still starts a change (Backbone's `changed` emptied, its previous
    /// attributes made the current ones), which is nothing only when the model's last `set`
    /// already left it so (``ChangeRecord/isSettled(at:)``). So the test asks for that, for
    /// options under which such a `set` calls no code of the app's (no `parse`, no `validate`,
    /// not an unset), for a model without relations to merge, and for the record's keys in the
    /// model's order, each value equal to the model's. Anything else takes the `set`.
    static func setChangesNothing(_ record: Attributes, on model: Model, options: ChangeOptions) -> Bool {
        guard options.parse != true, options.validate != true, !options.unset else { return false }
        guard let changes = model.storedChangeRecord else { return false }
        let storage = model.storage
        guard storage.count == record.count, changes.isSettled(at: storage) else { return false }
        if model.storedExtras?.relationLinks != nil { return false }
        for position in 0..<record.count {
            let key = storage.entryAddress(at: position)
            guard StringIdentity.equal(key.pointee.key, record.entryAddress(at: position).pointee.key) else {
                return false
            }
            if storage.match(ofValueAt: position, withValueAt: position, in: record) == .different { return false }
        }
        return true
    }
}
