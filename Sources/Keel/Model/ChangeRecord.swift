/// The bookkeeping of a model's `set`s: Backbone's `_previousAttributes`, `changed`,
/// `_changing` and `_pending`.
///
/// Kept out of line and created by a model's first `set`, so that a model that is built and
/// read but never changed (the common case for records loaded from a server) does not carry
/// it.
///
/// A model whose first `set` changed nothing holds the one shared
/// ``followingStorage`` record instead of one of its own (its previous attributes are its
/// current ones, and nothing changed); its next `set` that records anything makes its own.
///
/// The state opts out of run-time exclusivity checks for the reason given on the model's
/// own state: no mutating access to it stays open across a call into user code.
final class ChangeRecord {
    /// The record of every model whose `set`s so far changed nothing: its previous attributes
    /// are the model's current ones (``followsStorage``), nothing changed, no `set` is running.
    ///
    /// Never changed: a model that holds it makes a record of its own before recording
    /// anything (``Model/changeRecord``), which is what makes sharing it safe.
    nonisolated(unsafe) static let followingStorage = ChangeRecord(followingStorage: ())

    /// Whether this is ``followingStorage``: the previous attributes are the model's current
    /// ones, and ``previous`` is not read.
    let followsStorage: Bool
    /// The attributes before the outermost `set` in progress, or before the last one.
    @exclusivity(unchecked) var previous = Attributes()
    /// The attributes changed by the current or last outermost `set`.
    ///
    /// Read from here only: a `set` records its changes through ``start(from:)``,
    /// ``setChanged(only:_:)``, ``setChanged(at:of:)``, ``setChanged(toAll:)`` and
    /// ``record(_:_:)``. Changes recorded as positions of an input are copied out on the first
    /// read.
    var changed: Attributes {
        @inline(__always) get {
            if !changedPositions.isEmpty { copyChangedEntries() }
            return storedChanged
        }
    }
    /// ``changed``, or, while ``changedPositions`` is not empty, the input whose entries at
    /// those positions are the changes, not yet copied out.
    ///
    /// Either way it is empty exactly when nothing changed (an input with changes has entries),
    /// so that a settled record is told by one test.
    @exclusivity(unchecked) private var storedChanged = Attributes()
    /// The positions in ``storedChanged`` of the changes not yet copied out; empty when
    /// ``storedChanged`` is ``changed``.
    @exclusivity(unchecked) private var changedPositions = PositionSet()
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
        followsStorage = false
    }

    /// Creates ``followingStorage``.
    private init(followingStorage: Void) {
        idAttribute = ""
        followsStorage = true
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
        clearChanged()
    }

    /// Whether the current or last outermost `set` changed nothing, decided without copying
    /// out the changes.
    @inline(__always)
    var hasNoChanges: Bool { storedChanged.isEmpty }

    /// Whether an outermost `set` that changes nothing would leave the record as it is: no
    /// `set` in progress, the previous attributes already `current`, nothing changed (or the
    /// shared record, whose previous attributes are always the current ones).
    @inline(__always)
    func isSettled(at current: Attributes) -> Bool {
        (!isChanging && previous.isIdentical(to: current) && hasNoChanges) || followsStorage
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
        // An input with changes not copied out has several entries, so it is not replaced in
        // place but emptied below.
        if !changedPositions.isEmpty { changedPositions = PositionSet() }
        if storedChanged.replaceLoneValue(value, ifKeyIs: key) { return }
        storedChanged.removeAll(keepingCapacity: true)
        storedChanged.appendUnchecked(key, value)
    }

    /// Makes `changed` the entries of `input` at `positions` (distinct keys), in order,
    /// without copying them yet: a merge whose changes no one reads allocates no list of them.
    ///
    /// `input` is kept, as a value, until the changes are copied out or replaced.
    @inline(__always)
    func setChanged(at positions: PositionSet, of input: Attributes) {
        storedChanged = input
        changedPositions = positions
    }

    /// Makes `changed` every entry of `input`.
    @inline(__always)
    func setChanged(toAll input: Attributes) {
        changedPositions = PositionSet()
        storedChanged = input
    }

    /// Empties `changed`, keeping its storage for the next `set`.
    @inline(__always)
    private func clearChanged() {
        if storedChanged.isEmpty { return }
        if changedPositions.isEmpty {
            storedChanged.removeAll(keepingCapacity: true)
        } else {
            // The input is let go of, not emptied: its storage is the caller's too.
            changedPositions = PositionSet()
            storedChanged = Attributes()
        }
    }

    /// Copies the changes recorded as positions into ``storedChanged``.
    @inline(never)
    private func copyChangedEntries() {
        var copied = Attributes()
        copied.reserveCapacity(changedPositions.count)
        for position in changedPositions {
            copied.appendUnchecked(
                storedChanged.keyAddress(at: position).pointee,
                storedChanged.valueAddress(at: position).pointee
            )
        }
        storedChanged = copied
        changedPositions = PositionSet()
    }

    /// Updates `changed` for one `set`, comparing with the attributes before the outermost
    /// `set` as Backbone does.
    func record(_ attributes: Attributes, unsetting: Bool) {
        // `JSONValue?.none`, not `nil`, which would be read as `JSONValue.null` here.
        for (key, value) in attributes { record(key, unsetting ? JSONValue?.none : .some(value)) }
    }

    /// Updates `changed` for one attribute set to `newValue` (`nil`: removed).
    func record(_ key: String, _ newValue: JSONValue?) {
        if !changedPositions.isEmpty { copyChangedEntries() }
        if previous[key] != newValue {
            storedChanged[key] = newValue ?? .null
        } else {
            storedChanged.removeValue(forKey: key)
        }
    }
}
