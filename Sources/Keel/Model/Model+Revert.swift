extension Model {
    /// Restores the attributes of the last successful fetch or save: the server's state, as
    /// Core Data's `rollback()` restores a context's last saved state.
    ///
    /// Changed attributes get their server values and attributes added since are removed,
    /// with the usual `change:attr` and `change` events unless `silent`; validation does not
    /// run (the server's values are what they are). ``validationError`` stays, so a form can
    /// still show why a save was refused. A model that was never fetched or saved has no
    /// server state and is left as it is. Backbone has no such call.
    ///
    /// ```swift
    /// note["title"] = "Draft"
    /// do {
    ///     try await note.save()
    /// } catch {
    ///     note.revert()          // the title the server has
    /// }
    /// note.unsavedChanges        // nil
    /// ```
    ///
    /// - Parameter silent: Suppresses the change events.
    /// - Returns: `false` when the model has no server state to return to.
    @discardableResult
    public func revert(silent: Bool = false) -> Bool {
        guard let synced = syncedStorage else { return false }
        let kept = storedValidationError
        var restored = Attributes()
        for (key, value) in synced where storage[key] != value { restored[key] = value }
        let removed = storage.keys.filter { synced[$0] == nil }
        if !restored.isEmpty { set(restored, silent: silent, validate: false) }
        for key in removed { unset(key, silent: silent, validate: false) }
        setValidationError(kept)
        return true
    }
}
