/// The fields of a model's `change:<attribute>` or `change` event, in one object that an
/// ``Event`` references: building the event retains it, and destroying the event releases it.
///
/// A model's change record keeps one and reuses it for the model's next change event while no
/// handler kept an event that references it (copy-on-write, tested with
/// `isKnownUniquelyReferenced` after each dispatch). A handler that keeps an event keeps the
/// storage with that change's fields: the record lets it go (``keepModel()``), and the next
/// change event gets storage of its own.
///
/// The storage opts out of run-time exclusivity checks for the reason given on the model's
/// own state: no mutating access to it stays open across a call into user code, and it is
/// written only while nothing but its record references it.
final class ChangeEventStorage {
    /// The model the events are about, unretained: while the model's record keeps the storage,
    /// the model outlives it; once an event kept it, ``keptModel`` retains the model.
    unowned(unsafe) let model: Model
    /// The model, retained once an event kept the storage past its dispatch.
    private var keptModel: Model?
    /// The event's name: `change:<attribute>` or `change`.
    @exclusivity(unchecked) var name: String
    /// The attribute's new value for `change:<attribute>` (`nil` when it was removed), `nil`
    /// for `change`.
    @exclusivity(unchecked) var value: JSONValue?
    /// The options of the `set` that caused the event.
    @exclusivity(unchecked) var options = ChangeOptions()

    /// Creates the storage of one event about `model`, with default options.
    init(model: Model, name: String, value: JSONValue?) {
        self.model = model
        self.name = name
        self.value = value
    }

    /// Retains the model for an event that a handler kept: the storage then lives apart from
    /// the model's record, which makes new storage for the next change event.
    func keepModel() {
        keptModel = model
    }

    /// Lets go of the options' references (a related model that caused the change, custom
    /// values) once no event references the storage, so that the record does not keep them
    /// alive until the next change.
    @inline(__always)
    func releaseOptions() {
        if case .some = options.extras { options = ChangeOptions() }
    }
}
