/// The live side of one relation of one owner: the related model or collection, which the
/// owner's attribute mirrors as JSON.
protocol RelationLink: AnyObject {
    /// The owner's attribute, in app names.
    var key: String { get }
    /// The position of the owner's attribute (``key``) in `attributes`, if it is there.
    ///
    /// Asked of the link, which compares its key where it lies: reading ``key`` through the
    /// protocol copied the string out, retained twice and released, for every record merged.
    func position(in attributes: Attributes) -> Int?
    /// Merges a value set on the owner into the related objects, and returns the mirror to
    /// store (`nil` to remove the attribute).
    func merge(_ value: JSONValue?, options: ChangeOptions) -> JSONValue?
    /// The body entries that stand for the relation in a save (replacing the mirror); with
    /// `changesOnly`, a patch's. Keys are in app names, related records in their classes' wire
    /// formats (``Model/nestedRecord(_:changesOnly:visited:)``, given `visited`).
    func encoded(changesOnly: Bool, visited: inout Set<ObjectIdentifier>) -> [(key: String, value: JSONValue)]
    /// Whether a patch must send the relation although the mirror did not change (removed
    /// records to destroy).
    var hasPendingRemovals: Bool { get }
    /// Records that the owner was saved or fetched: the related models are as on the server.
    /// `visited` holds the models already marked, which a cycle of relations reaches again.
    func markSynced(visited: inout Set<ObjectIdentifier>)
    /// The related models with their paths in the owner (`invites[1]`, `profile`).
    var relatedModels: [(path: String, model: Model)] { get }
    /// Why a value cannot be merged into the relation (not a list of records for a
    /// has-many, not a record for a has-one or belongs-to); `nil` when it can.
    func shapeError(of value: JSONValue) -> String?
}

extension Model {
    /// Stores a related object's new state in the owner's attribute, firing
    /// `change:<key>` and `change` with the related model and its path on the events.
    func relationDidChange(_ link: any RelationLink, mirror: JSONValue?, nested: Model, path: String) {
        var options = ChangeOptions(validate: false)
        options.nested = (nested, path)
        if let mirror {
            apply([link.key: mirror], options: options)
        } else if storage.contains(link.key) {
            options.unset = true
            apply([link.key: .null], options: options)
        }
    }
}
