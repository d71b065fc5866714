/// What a ``NamedCollection``'s handler receives, as each of Keel's handlers receives one
/// `Event`: the event's name and, by event, the record, the value, the index or the changes.
struct NamedEvent {
    /// The event's name, such as `"ping"` or `"change:title"`.
    let name: String
    /// The record the event is about (`add`, `remove`, `change`, `change:<attribute>`).
    var record: NamedRecord? = nil
    /// The trigger's argument, or an attribute's new value (`change:<attribute>`).
    var value: PlainValue? = nil
    /// The position the record had before it left (`remove`).
    var index: Int? = nil
    /// What an `add` or `set` changed (`update`).
    var changes: NamedChanges? = nil
}
