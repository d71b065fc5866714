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
    /// The storage of the attributes before last, kept when a `set` replaced ``previous``, so
    /// that the next `set` of one attribute writes its new attributes into it instead of
    /// allocating a copy and freeing this one (``JSONObject/assign(copying:settingValue:at:)``).
    ///
    /// Its values are stale: it is never read as attributes. It may be shared (a caller kept
    /// the previous attributes); the next `set` then copies instead of reusing it.
    @exclusivity(unchecked) var spare = Attributes()
    /// The model class's ``Model/idAttribute``, read once: every `set` of one attribute
    /// compares its key with it, and reading the class property calls through the class and
    /// returns a string to release.
    let idAttribute: String

    /// Creates the record of a model whose class's id attribute is `idAttribute`.
    init(idAttribute: String) {
        self.idAttribute = idAttribute
    }

    /// Whether `key` is the class's id attribute, decided by the bits of the two strings when
    /// they are small ASCII ones.
    @inline(__always)
    func isIDAttribute(_ key: String) -> Bool {
        StringIdentity.equal(key, idAttribute)
    }

    /// Starts an outermost `set`: the attributes before it are `current`, and nothing has
    /// changed yet.
    @inline(__always)
    func start(from current: Attributes) {
        if !previous.isIdentical(to: current) { previous = current }
        if !changed.isEmpty { changed.removeAll(keepingCapacity: true) }
    }

    /// Whether an outermost `set` that changes nothing would leave the record as it is: no
    /// `set` in progress, the previous attributes already `current`, nothing changed.
    @inline(__always)
    func isSettled(at current: Attributes) -> Bool {
        !isChanging && previous.isIdentical(to: current) && changed.isEmpty
    }

    /// Takes ``spare`` out, leaving it empty: the storage for a `set`'s new attributes.
    @inline(__always)
    func takeSpare() -> Attributes {
        var taken = Attributes()
        swap(&taken, &spare)
        return taken
    }

    /// Makes `current` the previous attributes for an outermost `set`, keeping the storage
    /// they replace as ``spare``.
    @inline(__always)
    func replacePrevious(with current: Attributes) {
        swap(&spare, &previous)
        previous = current
    }

    /// For an outermost `set` whose new attributes are `prospective`, which took ``spare``:
    /// `current` (the model's storage) becomes the previous attributes, the storage they
    /// replace the spare, and `prospective` the current attributes, each moved, none copied;
    /// `prospective` is left empty.
    @inline(__always)
    func rotate(_ current: inout Attributes, to prospective: inout Attributes) {
        swap(&spare, &previous)
        swap(&previous, &current)
        swap(&current, &prospective)
    }

    /// Makes `changed` the one entry `key: value`, writing the value in place when `changed`
    /// is already that one key.
    @inline(__always)
    func setChanged(only key: String, _ value: JSONValue) {
        if changed.replaceLoneValue(value, ifKeyIs: key) { return }
        changed.removeAll(keepingCapacity: true)
        changed.appendUnchecked(key, value)
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
