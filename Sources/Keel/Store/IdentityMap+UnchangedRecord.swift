extension IdentityMap {
    /// How a record found in the map compares with its live model
    /// (``unchangedRecordMatch(_:on:options:)``).
    enum UnchangedRecordMatch {
        /// Setting the record may change something: the map sets it.
        case changes
        /// Setting the record changes nothing; some value is equal to the model's but not
        /// the same bits (`1` and `1.0`, or two copies of a long string).
        case unchanged
        /// Setting the record changes nothing, and each of its keys and values is the same
        /// bits as the model's: the record is an exact copy of the model's attributes.
        case sameBits
    }

    /// Whether setting `record` on the live `model`, with `options`, would change nothing,
    /// and whether the record then repeats the model's attributes bit for bit.
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
    ///
    /// A record whose values all have the model's bits is what the relation that links the
    /// model would find again comparing its mirror (``Model/isExactCopy(_:of:)``): the map
    /// tells it so (``takeExactCopy(of:)``).
    static func unchangedRecordMatch(_ record: Attributes, on model: Model, options: ChangeOptions)
        -> UnchangedRecordMatch
    {
        guard options.parse != true, options.validate != true, !options.unset else { return .changes }
        let storage = model.storage
        // The change record is asked where it lies: a binding of it lived through the comparisons
        // below, which call out, and was retained and released around them.
        guard storage.count == record.count, model.storedChangeRecord?.isSettled(at: storage) == true else {
            return .changes
        }
        if model.storedExtras?.relationLinks != nil { return .changes }
        var match = UnchangedRecordMatch.sameBits
        for position in 0..<record.count {
            let key = storage.keyAddress(at: position)
            guard StringIdentity.equal(key.pointee, record.keyAddress(at: position).pointee) else {
                return .changes
            }
            switch storage.match(ofValueAt: position, withValueAt: position, in: record) {
            case .different: return .changes
            case .equal: match = .unchanged
            case .sameBits: continue
            }
        }
        return match
    }

    /// Whether the last lookup found `model` holding its record bit for bit, forgetting it.
    ///
    /// Asked by the relation that linked the model right after the lookup, before anything
    /// else can set the model: the record it holds is then the model's mirror.
    func takeExactCopy(of model: ObjectIdentifier) -> Bool {
        guard let exact = exactCopyModel else { return false }
        exactCopyModel = nil
        return exact == model
    }
}
