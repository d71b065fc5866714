public import Keel

/// Where ``CachingSync`` answers a read from: the local copy, the remote, or both.
///
/// Choose one per call with `SyncOptions.readPolicy`, per collection with
/// ``CachingSync/Configuration/readPolicies``, or for everything else with
/// ``CachingSync/Configuration/defaultReadPolicy``.
///
/// ```swift
/// try await note.fetch(options: SyncOptions(readPolicy: .localOnly))
/// try await notes.fetch(readPolicy: .localThenRemote)   // two updates: local, then the server's
/// ```
public enum ReadPolicy: String, Sendable, Hashable, CaseIterable {
    /// The local copy first, then the remote's: with `Model.fetch(readPolicy:options:)`
    /// or `Collection.fetch(readPolicy:options:)` the model or collection is updated
    /// twice, with events each time. A plain `fetch` under this policy answers from the
    /// local copy when it holds the record or records of the collection, else from the
    /// remote.
    case localThenRemote
    /// The remote, stored locally; the local copy when the remote cannot be reached.
    case remoteFirst
    /// The local copy only; nothing is sent.
    case localOnly
    /// The remote only (its answer is still stored locally); no fallback.
    case remoteOnly
}

extension SyncOptions {
    /// The key of `readPolicy` in the request's context.
    static let readPolicyKey = "keel.readPolicy"

    /// The read policy for this call (`CachingSync` only); `nil` uses the configured one.
    ///
    /// It travels in the request's `context`, so other backends ignore it.
    ///
    /// ```swift
    /// var options = SyncOptions()
    /// options.readPolicy = .localOnly
    /// try await notes.fetch(options: options)
    /// ```
    public var readPolicy: ReadPolicy? {
        get { custom[Self.readPolicyKey]?.stringValue.flatMap(ReadPolicy.init(rawValue:)) }
        set { custom[Self.readPolicyKey] = newValue.map { .string($0.rawValue) } }
    }

    /// Options with a read policy.
    ///
    /// ```swift
    /// try await note.fetch(options: SyncOptions(readPolicy: .remoteOnly))
    /// ```
    ///
    /// - Parameter readPolicy: Where `CachingSync` answers the read from.
    public init(readPolicy: ReadPolicy) {
        self.init()
        self.readPolicy = readPolicy
    }
}

extension SyncRequest {
    /// The read policy the caller asked for, if any.
    var readPolicy: ReadPolicy? {
        context[SyncOptions.readPolicyKey]?.stringValue.flatMap(ReadPolicy.init(rawValue:))
    }
}
