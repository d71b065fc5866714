import Keel

// MARK: - trigger_10

extension KeelTrials {
    /// `trigger_10`'s state: a bare emitter with ten `ping` listeners that count calls and
    /// sum their argument.
    struct PingState {
        let emitter = EventEmitter()
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

    /// `trigger_10`: 1,000,000 triggers of an event with ten listeners and one argument.
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

extension KeelTrials {
    /// `listen_stop`'s state: two bare emitters and one counting handler.
    struct ListenState {
        let listener = EventEmitter()
        let target = EventEmitter()
        let calls = Counter()
        let handler: (Event) -> Void

        init() {
            handler = { [calls] _ in calls.value += 1 }
        }
    }

    /// `listen_stop`: 100,000 times `listenTo` one event, then `stopListening()` to everything.
    ///
    /// Keel's listening-to and listener maps are internal; the public check is that the
    /// target's `change` no longer reaches the handler.
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
                return state.calls.value
            }
        )
    }
}
