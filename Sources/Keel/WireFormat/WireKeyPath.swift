/// A dot-separated path of keys through nested JSON objects (`author.address.city`), as
/// ``KeyMapping/paths`` names them.
struct WireKeyPath {
    let keys: [String]

    init(_ path: String) {
        keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The value at the path, or `nil` when a key is missing or a value on the way is not an
    /// object.
    func value(in body: JSONValue) -> JSONValue? {
        var value = body
        for key in keys {
            guard let next = value.objectValue?[key] else { return nil }
            value = next
        }
        return value
    }

    /// Removes the value at the path and returns it; an object the removal leaves empty is
    /// removed too. `nil`, and nothing removed, when a key is missing or a value on the way is
    /// not an object.
    func remove(from object: inout JSONObject) -> JSONValue? {
        remove(keys[...], from: &object)
    }

    private func remove(_ keys: ArraySlice<String>, from object: inout JSONObject) -> JSONValue? {
        guard let key = keys.first else { return nil }
        guard keys.count > 1 else { return object.removeValue(forKey: key) }
        guard var inner = object[key]?.objectValue else { return nil }
        let value = remove(keys.dropFirst(), from: &inner)
        if value != nil {
            if inner.isEmpty { object.removeValue(forKey: key) } else { object[key] = .object(inner) }
        }
        return value
    }

    /// Puts a value at the path, inside the objects already there; a value on the way that
    /// is not an object is replaced by one.
    func set(_ value: JSONValue, in object: inout JSONObject) {
        set(value, keys[...], in: &object)
    }

    private func set(_ value: JSONValue, _ keys: ArraySlice<String>, in object: inout JSONObject) {
        guard let key = keys.first else { return }
        guard keys.count > 1 else {
            object[key] = value
            return
        }
        var inner = object[key]?.objectValue ?? JSONObject()
        set(value, keys.dropFirst(), in: &inner)
        object[key] = .object(inner)
    }
}
