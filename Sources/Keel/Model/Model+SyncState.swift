import Observation

extension Model {
    /// Where the model stands with its server (observable; `syncState` events report
    /// changes).
    ///
    /// A new model is ``SyncState/synced`` until a sync says otherwise: a successful fetch
    /// or save makes it `synced` (or what the backend reports, such as `pending` for a
    /// change queued while offline), a failed one `failed`.
    ///
    /// ```swift
    /// try await note.save(["title": "Offline"])
    /// note.syncState  // .pending while the server cannot be reached
    /// ```
    public var syncState: SyncState {
        observe(Self.syncStateKeyPath)
        return storedExtras?.syncState ?? .synced
    }

    nonisolated(unsafe) static let syncStateKeyPath: KeyPath<Model, SyncState> = \.syncState

    /// Sets the state, telling Observation and firing `syncState` when it changes.
    ///
    /// - Parameters:
    ///   - state: The new state.
    ///   - options: The options the event carries (`silent` fires nothing).
    package func setSyncState(_ state: SyncState, options: ChangeOptions = ChangeOptions()) {
        guard (storedExtras?.syncState ?? .synced) != state else { return }
        if let registrar {
            registrar.withMutation(of: self, keyPath: Self.syncStateKeyPath) { extras.syncState = state }
        } else {
            extras.syncState = state
        }
        guard !options.silent else { return }
        var error: SyncError?
        if case .failed(let failure) = state { error = failure }
        dispatch(Event(name: "syncState", model: self, error: error, options: options))
    }
}
