/// The bookkeeping of a model's `set`s: Backbone's `_previousAttributes`, `changed`,
/// `_changing` and `_pending`.
///
/// Kept out of line and created by a model's first `set`, so that a model that is built and
/// read but never changed (the common case for records loaded from a server) does not carry
/// it.
///
/// The state opts out of run-time exclusivity checks for the reason given on the model's
/// own state: no mutating access to it stays open across a call into user code.
final class ChangeRecord {
    /// The attributes before the outermost `set` in progress, or before the last one.
    @exclusivity(unchecked) var previous = Attributes()
    /// The attributes changed by the current or last outermost `set`.
    @exclusivity(unchecked) var changed = Attributes()
    /// Whether a `set` is running (Backbone's `_changing`).
    @exclusivity(unchecked) var isChanging = false
    /// The options of the latest `set` whose `change` event has not fired yet (`_pending`).
    @exclusivity(unchecked) var pendingOptions: ChangeOptions?

    /// Starts an outermost `set`: the attributes before it are `current`, and nothing has
    /// changed yet.
    @inline(__always)
    func start(from current: Attributes) {
        if !previous.isIdentical(to: current) { previous = current }
        if !changed.isEmpty { changed.removeAll(keepingCapacity: true) }
    }

    /// Updates `changed` for one `set`, comparing with the attributes before the outermost
    /// `set` as Backbone does.
    func record(_ attributes: Attributes, unsetting: Bool) {
        // `JSONValue?.none`, not `nil`, which would be read as `JSONValue.null` here.
        for (key, value) in attributes { record(key, unsetting ? JSONValue?.none : .some(value)) }
    }

    /// Updates `changed` for one attribute set to `newValue` (`nil`: removed).
    func record(_ key: String, _ newValue: JSONValue?) {
        if previous[key] != newValue {
            changed[key] = newValue ?? .null
        } else {
            changed.removeValue(forKey: key)
        }
    }
}
