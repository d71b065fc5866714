/// The models a ``Store`` was told to insert or delete and has not saved yet, in the order
/// it was told.
struct PendingChanges {
    private(set) var inserted: [Model] = []
    private(set) var deleted: [Model] = []

    mutating func insert(_ model: Model) {
        guard !inserted.contains(where: { $0 === model }) else { return }
        inserted.append(model)
    }

    /// Marks a model for deletion; returns `false` for a model inserted and never saved,
    /// which is simply forgotten.
    mutating func delete(_ model: Model) -> Bool {
        if let index = inserted.firstIndex(where: { $0 === model }), model.isNew {
            inserted.remove(at: index)
            return false
        }
        if !deleted.contains(where: { $0 === model }) { deleted.append(model) }
        return true
    }

    /// Forgets the inserted models that were saved or destroyed since, and the deleted ones
    /// the store no longer holds.
    mutating func prune(isHeld: (Model) -> Bool) {
        inserted.removeAll { !$0.isNew || !isHeld($0) }
        deleted.removeAll { !isHeld($0) }
    }

    /// Forgets inserted models by ``Model/cid``: the server created them in a committed
    /// batch whose results did not give them ids, so saving them again would create them twice.
    mutating func forgetInserted(_ cids: [String]) {
        let forgotten = Set(cids)
        inserted.removeAll { forgotten.contains($0.cid) }
    }

    mutating func removeAll() {
        inserted.removeAll()
        deleted.removeAll()
    }
}
