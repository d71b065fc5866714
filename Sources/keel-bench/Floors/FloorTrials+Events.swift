// MARK: - trigger_10

extension FloorTrials {
    /// One registered closure, in an object so that calling it borrows the closure
    /// instead of copying it (a copy retains and releases its context).
    final class PingHandler {
        let call: (Int) -> Void

        init(_ call: @escaping (Int) -> Void) {
            self.call = call
        }
    }

    /// The floor of `trigger_10`'s state: ten closures in the array of the one event.
    struct PingState {
        var handlers: ContiguousArray<PingHandler> = []
        let tally = Tally()

        init() {
            for _ in 0..<10 {
                handlers.append(
                    PingHandler { [tally] value in
                        tally.calls += 1
                        tally.sum += value
                    }
                )
            }
        }
    }

    /// The floor of `trigger_10`: call the ten closures of the event, in order.
    static func trigger10() -> Trial {
        Trial(
            setup: { PingState() },
            body: { state in
                state.handlers.withUnsafeBufferPointer { handlers in
                    for i in 0..<1_000_000 {
                        for index in handlers.indices {
                            Unmanaged.passUnretained(handlers[index])._withUnsafeGuaranteedRef { $0.call(i) }
                        }
                    }
                }
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
    /// The floor of `listen_stop`'s state: two emitters of one event (`change`, slot 0) and
    /// one counting closure.
    struct ListenState {
        static let change = 0
        let listener = SlotEmitter(eventCount: 1)
        let target = SlotEmitter(eventCount: 1)
        let calls = Counter()
        let handler: (Int) -> Void

        init() {
            handler = { [calls] _ in calls.value += 1 }
        }
    }

    /// The floor of `listen_stop`: register a tagged closure in the event's array and
    /// remember the target, then remove the tagged closures and forget the target.
    static func listenStop() -> Trial {
        Trial(
            setup: { ListenState() },
            body: { state in
                for _ in 0..<100_000 {
                    state.listener.listenTo(state.target, ListenState.change, state.handler)
                    state.listener.stopListening()
                }
            },
            verify: { state in
                state.target.trigger(ListenState.change, 0)
                try expect(state.target.hasNoHandlers, "the target still has handlers")
                try expect(state.listener.listeningTo.isEmpty, "the listener still listens")
                return state.calls.value
            }
        )
    }
}
