import Foundation
import Keel

/// What the local copy does with a stored JSON:API resource object.
enum JSONAPIResource {
    /// Whether a record is a resource object: a `type`, and `attributes` or `relationships`
    /// objects when it has them.
    static func isResource(_ record: JSONObject) -> Bool {
        record["type"]?.stringValue != nil
            && (record["attributes"].map { $0.objectValue != nil } ?? true)
            && (record["relationships"].map { $0.objectValue != nil } ?? true)
    }

    /// A resource with the members of `changes`: `attributes`, `relationships` and `meta`
    /// member by member, so that a partial resource (a PATCH, a sparse fieldset) keeps what it
    /// does not carry; the other members replaced.
    static func merged(_ stored: JSONObject, _ changes: JSONObject) -> JSONObject {
        var result = stored
        for (name, value) in changes {
            if ["attributes", "relationships", "meta"].contains(name), let old = stored[name]?.objectValue,
                let new = value.objectValue
            {
                result[name] = .object(old.merging(new))
            } else {
                result[name] = value
            }
        }
        return result
    }

    /// The value a member name names in a resource: an attribute, the id of a to-one
    /// linkage, or for `id`, the resource's id.
    static func value(of name: String, in resource: JSONObject) -> JSONValue? {
        if let attribute = resource["attributes"]?[name] { return attribute }
        if let linkage = resource["relationships"]?[name]?["data"] { return linkage.isNull ? .null : linkage["id"] }
        return name == "id" ? resource["id"] : nil
    }

    /// The resource identifiers of a relationship: none, one or many.
    static func linkage(of resource: JSONObject, named name: String) -> [JSONObject] {
        guard let data = resource["relationships"]?[name]?["data"] else { return [] }
        if let list = data.arrayValue { return list.compactMap(\.objectValue) }
        return data.objectValue.map { [$0] } ?? []
    }

    /// A resource's `type` and id as the store files it.
    static func identity(of resource: JSONObject) -> String? {
        guard let type = resource["type"]?.stringValue, let id = resource["id"], !id.isNull else { return nil }
        return type + "\n" + CachePath.key(id)
    }
}
