extension Store {
    /// Asks a backend that reports external changes (``ExternalChangeReporting``) whether
    /// another process committed since the last check, and invalidates every loaded query
    /// when one did, so that the queries kept loaded read the records again.
    ///
    /// Queries kept loaded call this every ``externalChangeInterval``; when several wake up
    /// together, only the first asks.
    func checkForExternalChanges(force: Bool = false) async {
        guard let reporter = sync.backend(as: (any ExternalChangeReporting).self) else { return }
        let now = ContinuousClock.now
        if !force, let last = lastExternalCheck, now - last < externalChangeInterval / 2 { return }
        lastExternalCheck = now
        guard let version = try? await reporter.externalChangeVersion() else { return }
        let previous = externalVersion
        externalVersion = version
        guard let previous, previous != version else { return }
        for state in fetchStates.values { state.invalidate() }
    }

    /// Whether the backend, or one down its decorator chain, reports external changes.
    var reportsExternalChanges: Bool { sync.backend(as: (any ExternalChangeReporting).self) != nil }
}
