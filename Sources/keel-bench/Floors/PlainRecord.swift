/// The floor of Keel's `Model`: a record in plain Swift.
///
/// A dictionary of attributes that reports its changes to closures and to the collection
/// holding it.
final class PlainRecord {
    private(set) var attributes: PlainAttributes
    /// The collection holding the record; it hears every change.
    weak var collection: PlainCollection?
    /// Called with the name and new value of each attribute that changes.
    var attributeObservers: [(String, PlainValue) -> Void] = []
    /// Called once for each `set` that changed something.
    var changeObservers: [() -> Void] = []

    init(_ attributes: PlainAttributes) {
        self.attributes = attributes
    }

    /// The integer id, when the record has one.
    var id: Int? { attributes["id"]?.intValue }

    /// Stores the values that differ from the current ones, reporting each as it is stored,
    /// then reports one change if there was any.
    func set(_ changes: PlainAttributes) {
        var changed = false
        for (key, value) in changes where attributes[key] != value {
            attributes[key] = value
            changed = true
            for observer in attributeObservers { observer(key, value) }
            collection?.recordDidChange(self, key: key, value: value)
        }
        guard changed else { return }
        for observer in changeObservers { observer() }
        collection?.recordDidChange(self)
    }

    /// Stores the values without reporting anything.
    func setSilently(_ changes: PlainAttributes) {
        attributes.merge(changes) { _, new in new }
    }
}
