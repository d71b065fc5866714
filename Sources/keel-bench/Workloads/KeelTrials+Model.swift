import Keel

/// The workloads through Keel's public API, written as an application would write them.
enum KeelTrials {}

// MARK: - set_change, set_nochange

extension KeelTrials {
    /// A model with one counting listener on `change:x` and one on `change`.
    struct CountedModel {
        /// The typed key of `x`, for the typed workloads.
        static let x = AttributeKey<Int>("x")
        let model: Model
        let attributeChanges = Counter()
        let changes = Counter()

        init(x: Int) {
            model = Model(["x": .int(x)])
            model.on("change:x") { [attributeChanges] _ in attributeChanges.value += 1 }
            model.on("change") { [changes] _ in changes.value += 1 }
        }
    }

    /// `set_change`: 1,000,000 sets that each change `x`, firing `change:x` and `change`.
    static func setChange() -> Trial {
        Trial(
            setup: { CountedModel(x: -1) },
            body: { state in
                for i in 0..<1_000_000 { state.model.set(["x": .int(i)]) }
            },
            verify: { state in
                try expect(
                    state.attributeChanges.value == 1_000_000,
                    "change:x fired \(state.attributeChanges.value) times"
                )
                try expect(state.changes.value == 1_000_000, "change fired \(state.changes.value) times")
                try expect(state.model["x"] == 999_999, "final x is \(String(describing: state.model["x"]))")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }

    /// `set_nochange`: 1,000,000 sets of an equal value; no events fire.
    static func setNoChange() -> Trial {
        Trial(
            setup: { CountedModel(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.model.set(["x": 1]) }
            },
            verify: { state in
                try expect(state.model["x"] == 1, "x changed")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }
}

// MARK: - set_typed_change, set_typed_nochange

extension KeelTrials {
    /// `set_typed_change`: `set_change` through the typed subscript, `model[x] = i`.
    static func setTypedChange() -> Trial {
        Trial(
            setup: { CountedModel(x: -1) },
            body: { state in
                for i in 0..<1_000_000 { state.model[CountedModel.x] = i }
            },
            verify: { state in
                try expect(
                    state.attributeChanges.value == 1_000_000,
                    "change:x fired \(state.attributeChanges.value) times"
                )
                try expect(state.changes.value == 1_000_000, "change fired \(state.changes.value) times")
                try expect(state.model[CountedModel.x] == 999_999, "final x is \(String(describing: state.model["x"]))")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }

    /// `set_typed_nochange`: `set_nochange` through `set(_:_:)` with the typed key.
    static func setTypedNoChange() -> Trial {
        Trial(
            setup: { CountedModel(x: 1) },
            body: { state in
                for _ in 0..<1_000_000 { state.model.set(CountedModel.x, 1) }
            },
            verify: { state in
                try expect(state.model[CountedModel.x] == 1, "x changed")
                return state.attributeChanges.value + state.changes.value
            }
        )
    }
}

// MARK: - construct

extension KeelTrials {
    /// `construct`: 200,000 `Note`s built from fresh attribute literals into preallocated slots.
    static func construct() -> Trial {
        Trial(
            setup: { Slots<Note>(count: 200_000) },
            body: { out in
                for i in 0..<200_000 { out.items[i] = Note(noteAttributes(i)) }
            },
            verify: { out in
                let last = try unwrap(out.items[199_999], "the last slot is empty")
                try expect(last.id == 199_999, "last id \(String(describing: last.id))")
                try expect(last["archived"] == false, "the archived default is missing")
                try expect(last["title"] == "note 199999", "last title \(String(describing: last["title"]))")
                try expect(last.attributes.count == 8, "\(last.attributes.count) attributes")
                try expect(!last.hasChanged(), "hasChanged() after construction")
                return out.items.reduce(0) { sum, note in sum + (note?["rank"]?.intValue ?? 0) }
            }
        )
    }
}
