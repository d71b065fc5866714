/// What a store has applied of the server's changes: each record's last applied version
/// (so a repeated or late change is skipped) and, for a backend without a local copy, each
/// feed's cursor.
struct ChangeLedger {
    private var versions: [String: String] = [:]
    /// The cursors of feeds whose backend keeps none (``ChangeReceiving``).
    var cursors: [String: String] = [:]

    /// Records the change's version and tells whether it is to be applied: `false` when a
    /// change at this version or a newer one was applied already.
    mutating func admit(_ change: RemoteChange, in collection: String) -> Bool {
        let key = Self.key(collection: collection, id: change.id)
        guard RecordVersion.isNewer(change.version, than: versions[key]) else { return false }
        if let version = change.version { versions[key] = version }
        return true
    }

    private static func key(collection: String, id: JSONValue) -> String {
        "\(collection)\u{0}\(id.stringValue ?? id.description)"
    }
}
