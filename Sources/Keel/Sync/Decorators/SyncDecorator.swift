/// A backend that sends every request through another one, its ``base``: the decorators
/// Keel ships (``LoggingSync``, ``RetryingSync``, ``DeduplicatingSync``,
/// ``ConcurrencyLimitedSync``, ``ConditionalSync``, ``CancellableSync``, ``TokenAuthSync``)
/// and any of yours that adopts it.
///
/// What a backend offers beside answering requests is found down a chain of decorators
/// (``Sync/backend(as:)``), so a ``Store`` over a decorated backend works as over the
/// backend itself: it follows the commits of other processes to an SQLite file
/// (``ExternalChangeReporting``), tells the backend the classes it registers
/// (``ModelRegistrationReceiving``), and models show `pending` and `failed` states
/// (``SyncStateReporting``). Two capabilities are used only on the backend itself, since
/// going around the decorators would skip what they add to requests (a token, a log
/// entry): answering several requests in one transaction (``TransactionalSync``) and
/// receiving the server's changes (``ChangeReceiving``).
///
/// ```swift
/// struct CountingSync: SyncDecorator {
///     let base: any Sync
///     let count = Mutex(0)
///     func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
///         count.withLock { $0 += 1 }
///         return try await base.perform(request)
///     }
/// }
/// ```
public protocol SyncDecorator: Sync {
    /// The backend this one sends its requests through.
    ///
    /// ```swift
    /// LoggingSync(cache) { print($0) }.base  // cache
    /// ```
    var base: any Sync { get }
}

extension Sync {
    /// This backend as a `T`, else the first backend down its chain of decorators
    /// (``SyncDecorator/base``) that is one; `nil` when none is.
    ///
    /// ```swift
    /// let api = RetryingSync(LoggingSync(cache) { print($0) })  // cache: a CachingSync
    /// api.backend(as: (any ExternalChangeReporting).self)      // cache
    /// ```
    ///
    /// - Parameter type: The protocol or type to look for, such as
    ///   `(any ExternalChangeReporting).self`.
    /// - Returns: The first backend of the chain that is a `T`.
    public func backend<T>(as type: T.Type) -> T? {
        var backend: any Sync = self
        while true {
            if let found = backend as? T { return found }
            guard let decorator = backend as? any SyncDecorator else { return nil }
            backend = decorator.base
        }
    }
}
