// MARK: - trigger_10

extension FloorTrials {
    /// The floor of `trigger_10`'s state: ten closures under one name.
    struct PingState {
        let emitter = PlainEmitter()
        let tally = Tally()

        init() {
            for _ in 0..<10 {
                emitter.on("ping") { [tally] value in
                    tally.calls += 1
                    tally.sum += value
                }
            }
        }
    }

    /// The floor of `trigger_10`: look the name up, call ten closures.
    static func trigger10() -> Trial {
        Trial(
            setup: { PingState() },
            body: { state in
                for i in 0..<1_000_000 { state.emitter.trigger("ping", i) }
            },
            verify: { state in
                try expect(state.tally.sum == 4_999_995_000_000, "sum \(state.tally.sum)")
                return state.tally.calls
            }
        )
    }
}

// MARK: - listen_stop

extension FloorTrials {
    /// The floor of `listen_stop`'s state: two emitters and one counting closure.
    struct ListenState {
        let listener = PlainEmitter()
        let target = PlainEmitter()
        let calls = Counter()
        let handler: (Int) -> Void

        init() {
            handler = { [calls] _ in calls.value += 1 }
        }
    }

    /// The floor of `listen_stop`: register a tagged closure and remember the target, then
    /// remove the tagged closures and forget the target.
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
                state.target.trigger("change", 0)
                try expect(state.target.handlers.isEmpty, "the target still has handlers")
                try expect(state.listener.listeningTo.isEmpty, "the listener still listens")
                return state.calls.value
            }
        )
    }
}
