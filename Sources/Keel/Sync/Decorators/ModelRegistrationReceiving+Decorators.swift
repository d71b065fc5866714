// Each decorator forwards the classes a store registers to the backend it wraps, so a
// `CachingSync` under a retrying or logging chain still learns them.

extension CancellableSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// CancellableSync(cache).register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension ConcurrencyLimitedSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// ConcurrencyLimitedSync(cache, limit: 4).register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension ConditionalSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// ConditionalSync(cache).register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension DeduplicatingSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// DeduplicatingSync(cache).register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension LoggingSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// LoggingSync(cache) { print($0) }.register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension RetryingSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// RetryingSync(cache).register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}

extension TokenAuthSync: ModelRegistrationReceiving {
    /// Forwards the registration to ``base``.
    ///
    /// ```swift
    /// TokenAuthSync(cache, baseURL: api) { _ in token }.register(registration)  // reaches the cache
    /// ```
    ///
    /// - Parameter registration: A class the store registered.
    public func register(_ registration: ModelRegistration) { base.forwardRegistration(registration) }
}
