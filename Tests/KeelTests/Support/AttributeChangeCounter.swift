import Observation

@testable import Keel

/// Counts the changes Observation reports for one attribute of a model: a read of
/// `model[key]` is tracked once, so the count is 1 after a change of it and 0 otherwise.
///
/// ```swift
/// let title = AttributeChangeCounter(note, "title")
/// note["title"] = "Dune"
/// #expect(title.count == 1)
/// ```
struct AttributeChangeCounter {
    private let changes = Lock(0)

    init(_ model: Model, _ key: String) {
        let changes = changes
        withObservationTracking {
            _ = model[key]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
    }

    /// How many changes were reported.
    var count: Int { changes.withLock { $0 } }
}
