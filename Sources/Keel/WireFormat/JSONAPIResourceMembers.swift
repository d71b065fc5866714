/// Where the members of a JSON:API resource object that a reader uses sit in the object,
/// found in one pass over its entries.
///
/// Looking up `type`, `id`, `attributes` and `relationships` one by one searched the object
/// four times. A resource object has few members, and the four names are small ASCII
/// strings, which a parsed key equals exactly when their bits are equal. The positions are
/// plain integers, so that the members are copied out only where they are read.
struct JSONAPIResourceMembers {
    /// The bits of the four names, taken once per read: a string literal is built each time
    /// it is evaluated, and a copy of four strings retains each, which cost more than the
    /// comparisons.
    struct Names {
        fileprivate let type: (UInt64, UInt64)
        fileprivate let id: (UInt64, UInt64)
        fileprivate let attributes: (UInt64, UInt64)
        fileprivate let relationships: (UInt64, UInt64)
        /// Whether every name is a small ASCII string, so that bits decide for small keys.
        fileprivate let areSmall: Bool

        init() {
            let names = ["type", "id", "attributes", "relationships"]
            let bits = names.map(Self.bits)
            (type, id, attributes, relationships) = (bits[0], bits[1], bits[2], bits[3])
            areSmall = names.allSatisfy(StringIdentity.isSmallASCII)
        }

        private static func bits(_ name: String) -> (UInt64, UInt64) {
            #if _pointerBitWidth(_64)
                unsafeBitCast(name, to: (UInt64, UInt64).self)
            #else
                (0, 0)
            #endif
        }
    }

    /// The position of `type` in the object's entries, or `-1`.
    private(set) var type = -1
    /// The position of `id`, or `-1`.
    private(set) var id = -1
    /// The position of `attributes`, or `-1`.
    private(set) var attributes = -1
    /// The position of `relationships`, or `-1`.
    private(set) var relationships = -1

    /// The members of `resource`.
    init(of resource: JSONObject, names: Names) {
        for position in 0..<resource.count {
            let key = resource.entryAddress(at: position).pointee.key
            #if _pointerBitWidth(_64)
                if names.areSmall && StringIdentity.isSmallASCII(key) {
                    let bits = unsafeBitCast(key, to: (UInt64, UInt64).self)
                    if bits == names.attributes {
                        attributes = position
                    } else if bits == names.relationships {
                        relationships = position
                    } else if bits == names.id {
                        id = position
                    } else if bits == names.type {
                        type = position
                    }
                    continue
                }
            #endif
            switch key {
            case "attributes": attributes = position
            case "relationships": relationships = position
            case "id": id = position
            case "type": type = position
            default: break
            }
        }
    }

    /// The value at `position` in `resource` (the object these members were found in), or
    /// `nil` for a member it does not have.
    @inline(__always)
    static func value(at position: Int, in resource: JSONObject) -> JSONValue? {
        // Not a conditional expression: `JSONValue` is a nil literal too, so its `nil` would
        // be `.null`, not an absent member.
        guard position >= 0 else { return nil }
        return resource.value(at: position)
    }

    /// The identity, `(type, id)`, of `resource` (the object these members were found in), or
    /// `nil` when its `type` is not a string or its `id` is neither a string nor an integer.
    func key(in resource: JSONObject) -> JSONAPIResourceIndex.Key? {
        guard type >= 0, id >= 0, case .string(let typeName) = resource.entryAddress(at: type).pointee.value else {
            return nil
        }
        switch resource.entryAddress(at: id).pointee.value {
        case .string(let text): return JSONAPIResourceIndex.Key(type: typeName, id: text)
        case let other:
            guard let text = JSONAPIFormat.wireID(other) else { return nil }
            return JSONAPIResourceIndex.Key(type: typeName, id: text)
        }
    }
}
