public import Keel

extension Model {
    /// Fetches with a `ReadPolicy`; `ReadPolicy.localThenRemote` updates the model
    /// twice: first from the local copy, then from the remote, each with its `change` and
    /// `sync` events.
    ///
    /// With `localThenRemote`, a remote that cannot be reached after a local answer is not
    /// an error (the model keeps the local copy, and the failure is reported by the `error`
    /// event); a record the local copy does not have is read from the remote alone.
    ///
    /// ```swift
    /// try await note.fetch(readPolicy: .localThenRemote)
    /// ```
    ///
    /// - Parameters:
    ///   - readPolicy: Where to read from (the model's backend should be a `CachingSync`;
    ///     other backends ignore the policy).
    ///   - options: Other sync options.
    /// - Returns: The last response.
    /// - Throws: `SyncError` when no answer could be had.
    @discardableResult
    public func fetch(readPolicy: ReadPolicy, options: SyncOptions = SyncOptions()) async throws(SyncError)
        -> SyncResponse
    {
        var options = options
        guard readPolicy == .localThenRemote else {
            options.readPolicy = readPolicy
            return try await fetch(options: options)
        }
        options.readPolicy = .localOnly
        let local: SyncResponse
        do {
            local = try await fetch(options: options)
        } catch let error where error.isNotFound {
            options.readPolicy = .remoteOnly
            return try await fetch(options: options)
        }
        options.readPolicy = .remoteOnly
        do {
            return try await fetch(options: options)
        } catch  where CachingSync.isTemporary(error) {
            return local
        }
    }
}

extension Keel.Collection {
    /// Fetches with a `ReadPolicy`; `ReadPolicy.localThenRemote` updates the collection
    /// twice: first from the local copy, then from the remote (merged into the same model
    /// instances), each with its events.
    ///
    /// With `localThenRemote`, a remote that cannot be reached is not an error: the
    /// collection keeps the local copy, and the `error` event reports the failure.
    ///
    /// ```swift
    /// try await notes.fetch(readPolicy: .localThenRemote)
    /// ```
    ///
    /// - Parameters:
    ///   - readPolicy: Where to read from.
    ///   - options: Other sync options.
    /// - Returns: The models after the last fetch.
    /// - Throws: `SyncError` when no answer could be had.
    @discardableResult
    public func fetch(readPolicy: ReadPolicy, options: SyncOptions = SyncOptions()) async throws(SyncError) -> [M] {
        var options = options
        guard readPolicy == .localThenRemote else {
            options.readPolicy = readPolicy
            return try await fetch(options: options)
        }
        options.readPolicy = .localOnly
        let local = try await fetch(options: options)
        options.readPolicy = .remoteOnly
        do {
            return try await fetch(options: options)
        } catch  where CachingSync.isTemporary(error) {
            return local
        }
    }
}
