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

// MARK: - listen_stop

extension SameWorkTrials {
    /// `listen_stop`'s state: two emitters and one counting handler.
    struct ListenState {
        let listener = NamedListener()
        let target = NamedListener()
        let calls = Counter()
        let handler: (NamedListener.Event) -> Void

        init() {
            handler = { [calls] _ in calls.value += 1 }
        }
    }

    /// `listen_stop` through an API of the same shape: `listenTo(target, "change", h)` finds
    /// the event by name, keeps neither side alive and returns a token, and `stopListening()`
    /// removes the listener's handlers from its targets (``NamedListener``).
    static func listenStop() -> Trial {
        Trial(
            setup: { ListenState() },
            body: { state in
                for _ in 0..<100_000 {
                    state.listener.listenTo(state.target, "change", state.handler)
                    state.listener.stopListening()
                }
            },
            verify: { state in
                state.target.trigger("change")
                try expect(state.target.hasNoHandlers, "the target still has handlers")
                try expect(state.listener.listeningTo.isEmpty, "the listener still listens")
                return state.calls.value
            }
        )
    }
}
