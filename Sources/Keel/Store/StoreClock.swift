/// The time a ``Store`` measures `gcTime` against: the continuous clock, which tests move
/// forward instead of waiting.
final class StoreClock {
    /// How far tests have moved the clock forward.
    private var offset = Duration.zero

    /// The current time.
    var now: ContinuousClock.Instant { ContinuousClock.now.advanced(by: offset) }

    /// Moves the clock forward, as if `duration` had passed.
    func advance(by duration: Duration) {
        offset += duration
    }
}
