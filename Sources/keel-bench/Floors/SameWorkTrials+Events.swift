// MARK: - trigger_10

extension SameWorkTrials {
    /// `trigger_10`'s state: ten `ping` handlers registered by name that count calls and sum
    /// the integer in the event's value.
    struct PingState {
        let emitter = NamedEmitter()
        let tally = Tally()

        init() {
            for _ in 0..<10 {
                emitter.on("ping") { [tally] event in
                    tally.calls += 1
                    tally.sum += event.value?.intValue ?? 0
                }
            }
        }
    }

    /// `trigger_10` through an API of the same shape: `trigger("ping", .int(i))` finds the
    /// handlers by name and calls them over a snapshot of the list with an event of the name
    /// and the value, then the (empty) `all` handlers (``NamedEmitter``).
    static func trigger10() -> Trial {
        Trial(
            setup: { PingState() },
            body: { state in
                for i in 0..<1_000_000 { state.emitter.trigger("ping", .int(i)) }
            },
            verify: { state in
                try expect(state.tally.sum == 4_999_995_000_000, "sum \(state.tally.sum)")
                return state.tally.calls
            }
        )
    }
}
