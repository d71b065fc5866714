// MARK: - Merging a relation's records in place

extension Collection {
    /// Merges a has-many's records into the models at their positions, as `set` would.
    ///
    /// ``set(_:add:remove:merge:at:silent:options:)-(_,_,_,_,_,_,_)`` for records that each
    /// name, by id, the model already at their position (a fetch that finds the same children
    /// in the same order): the records are merged into those models in order, and `update`
    /// fires with them as merged, as `set` does. Returns `false`, having changed nothing and
    /// fired nothing, when the records do not match the models so, or when `set` would do more
    /// than merge: a comparator (a merge may call for a sort), `merge: false`, or a
    /// collection in the middle of an update.
    ///
    /// Only a relation's collection, always a `Collection<Child>` itself, takes this path: its
    /// ``parse(_:options:)`` is the default one, which hands an array of objects back as it is.
    ///
    /// A `change` handler that gives a later record's model another id makes that model no
    /// longer the record's: the records from there on go to `set`, with the models merged
    /// so far kept in place and reported as merged (see
    /// ``finishMerge(_:from:merged:options:)``).
    ///
    /// - Complexity: O(*n*) for *n* records, plus the merges.
    func mergeInPlace(_ records: JSONArray, options: UpdateOptions) -> Bool {
        guard comparator == nil, options.merge != false, !isUpdating, records.count == modelCount else {
            return false
        }
        guard !records.isEmpty else { return true }
        let models = Self.upcast(storage)
        let idAttribute = M.idAttribute
        var ids: [JSONValue] = []
        ids.reserveCapacity(records.count)
        for index in records.indices {
            guard case .object(let record) = records[index],
                let id = modelID(for: record, idAttribute: idAttribute),
                let model = indexed(id: id), model === models[index]
            else { return false }
            ids.append(id)
        }
        let parses = options.parse == true
        let change = options.change
        let finished: Bool = whileUpdating {
            for index in records.indices {
                let model = models[index]
                // A handler of an earlier merge may have moved the id; `set` looks the model up
                // again for each record, so this does too.
                guard index == 0 || indexed(id: ids[index]) === model else {
                    finishMerge(records, from: index, merged: models[..<index], options: options)
                    return false
                }
                // The record goes to `parse` as the JSON value it is, without wrapping a copy.
                let attributes = parses ? model.parse(records[index], options: change) : records[index].objectValue
                _ = model.apply(attributes ?? [:], options: change)
            }
            return true
        }
        guard finished, !options.silent, hasHandlers else { return true }
        let changes = CollectionChanges(added: [], removed: [], merged: models)
        dispatch(Event(name: "update", collection: self, changes: changes, options: change))
        return true
    }

    /// Hands the records from `start` on to `set`, after a handler changed an id in the
    /// middle of ``mergeInPlace(_:options:)``: the models merged so far go in as
    /// themselves (kept, not merged again), and the `update` that `set` fires counts them
    /// among the merged models.
    private func finishMerge(
        _ records: JSONArray,
        from start: Int,
        merged: ArraySlice<Model>,
        options: UpdateOptions
    ) {
        var inputs: [CollectionInput] = merged.map(CollectionInput.model)
        inputs.reserveCapacity(records.count)
        for index in start..<records.count { inputs.append(.attributes(records[index].objectValue ?? [:])) }
        isUpdating = false
        set(inputs: .mixed(inputs), options: options, alreadyMerged: Array(merged))
        isUpdating = true
    }
}
