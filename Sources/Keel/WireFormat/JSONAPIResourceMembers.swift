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
            let key = resource.keyAddress(at: position).pointee
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

    /// The members of `resource` that make its identity, `type` and `id`, found in a pass
    /// that ends once it has both: ``attributes`` and ``relationships`` stay `-1`.
    ///
    /// For the readers of an identity alone (a resource identifier, the document's index, the
    /// type of a primary resource): a resource object lists `type` and `id` first, nearly
    /// always, so the pass seldom looks at its other members.
    init(identityOf resource: JSONObject, names: Names) {
        for position in 0..<resource.count {
            let key = resource.keyAddress(at: position).pointee
            #if _pointerBitWidth(_64)
                if names.areSmall && StringIdentity.isSmallASCII(key) {
                    let bits = unsafeBitCast(key, to: (UInt64, UInt64).self)
                    if bits == names.type {
                        type = position
                    } else if bits == names.id {
                        id = position
                    } else {
                        continue
                    }
                    if type >= 0 && id >= 0 { return }
                    continue
                }
            #endif
            switch key {
            case "type": type = position
            case "id": id = position
            default: continue
            }
            if type >= 0 && id >= 0 { return }
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

    /// Whether the `type` of `resource` (the object these members were found in) is a string
    /// with the bits of `name`, read where it lies: `false` for an equal string held otherwise,
    /// which the caller then compares as a copy.
    @inline(__always)
    func hasType(sameBitsAs name: String, in resource: JSONObject) -> Bool {
        #if _pointerBitWidth(_64)
            guard type >= 0 else { return false }
            // The case is tested in place, and a multi-payload enum keeps each case's payload at
            // offset zero (docs/ABI/TypeLayout.rst), here a string's two words.
            let value = UnsafeRawPointer(resource.valueAddress(at: type))
            guard case .string = value.assumingMemoryBound(to: JSONValue.self).pointee else { return false }
            return value.load(as: (UInt64, UInt64).self) == unsafeBitCast(name, to: (UInt64, UInt64).self)
        #else
            return false
        #endif
    }

    /// Whether the `type` of `resource` (the object these members were found in) is `name`, as
    /// its bits tell where it lies: `true` for the same bits, `false` for no string or a small
    /// ASCII string other than a small ASCII `name` (no ASCII text equals other text), `nil`
    /// when only the strings compared can tell.
    ///
    /// For a test that mostly fails: a list's primary resources are mostly of another type than
    /// the one a relationship links to, and copying each one's type out to compare it retained
    /// and released it.
    @inline(__always)
    func hasType(_ name: String, byBitsIn resource: JSONObject) -> Bool? {
        #if _pointerBitWidth(_64)
            guard type >= 0 else { return false }
            // The case is tested in place, and a multi-payload enum keeps each case's payload at
            // offset zero (docs/ABI/TypeLayout.rst), here a string's two words.
            let value = UnsafeRawPointer(resource.valueAddress(at: type))
            guard case .string = value.assumingMemoryBound(to: JSONValue.self).pointee else { return false }
            let bits = value.load(as: (UInt64, UInt64).self)
            let nameBits = unsafeBitCast(name, to: (UInt64, UInt64).self)
            if bits == nameBits { return true }
            // The top three bits of a string's second word are all set for a small ASCII string.
            return (bits.1 & nameBits.1) >> 61 == 0b111 ? false : nil
        #else
            return nil
        #endif
    }

    /// The app value of the `id` at `position` in `resource` (the object these members were
    /// found in), read where it lies when it is a small ASCII string (an `Int` for a canonical
    /// decimal, as ``JSONAPIFormat`` reads ids); `nil` for any other value, which the caller
    /// reads as a copy.
    ///
    /// Copying the id out and then reading it retained and released it through two calls.
    @inline(__always)
    static func smallAppID(at position: Int, in resource: JSONObject) -> JSONValue? {
        guard let words = smallASCIIWords(at: position, in: resource) else { return nil }
        if let number = JSONAPIIdentityText.decimal(ofSmallWords: words) { return .int(number) }
        return .string(unsafeBitCast(words, to: String.self))
    }

    /// The `id` at `position` in `resource` (the object these members were found in) as the
    /// number it is when it is a small ASCII string of a canonical decimal, read in place:
    /// the integer ``smallAppID(at:in:)`` reads it as, without making a value of it; `nil`
    /// for any other id.
    @inline(__always)
    static func smallDecimalID(at position: Int, in resource: JSONObject) -> Int? {
        smallASCIIWords(at: position, in: resource).flatMap(JSONAPIIdentityText.decimal(ofSmallWords:))
    }

    /// The two words of the value at `position` in `resource` when it is a small ASCII string,
    /// read where it lies; `nil` for a missing member (`-1`), any other value, or a platform
    /// whose string layout this does not know.
    @inline(__always)
    private static func smallASCIIWords(at position: Int, in resource: JSONObject) -> (UInt64, UInt64)? {
        #if _pointerBitWidth(_64) && _endian(little)
            guard position >= 0 else { return nil }
            // The case is tested in place, and a multi-payload enum keeps each case's payload at
            // offset zero (docs/ABI/TypeLayout.rst), here a string's two words.
            let value = UnsafeRawPointer(resource.valueAddress(at: position))
            guard case .string = value.assumingMemoryBound(to: JSONValue.self).pointee else { return nil }
            let words = value.load(as: (UInt64, UInt64).self)
            // The top three bits of a small ASCII string's second word are all set.
            return words.1 >> 61 == 0b111 ? words : nil
        #else
            return nil
        #endif
    }

    /// The identity, `(type, id)`, of `resource` (the object these members were found in), or
    /// `nil` when its `type` is not a string or its `id` is neither a string nor an integer.
    func key(in resource: JSONObject) -> JSONAPIResourceIndex.Key? {
        guard type >= 0, id >= 0 else { return nil }
        #if _pointerBitWidth(_64)
            // Two small strings are read where they lie: binding them copied each value through
            // a call. The cases are tested in place, and a multi-payload enum keeps each case's
            // payload at offset zero (docs/ABI/TypeLayout.rst), here a string's two words.
            let typeValue = UnsafeRawPointer(resource.valueAddress(at: type))
            let idValue = UnsafeRawPointer(resource.valueAddress(at: id))
            if case .string = typeValue.assumingMemoryBound(to: JSONValue.self).pointee,
                case .string = idValue.assumingMemoryBound(to: JSONValue.self).pointee,
                let key = JSONAPIResourceIndex.Key(
                    smallTypeWords: typeValue.load(as: (UInt64, UInt64).self),
                    idWords: idValue.load(as: (UInt64, UInt64).self)
                )
            {
                return key
            }
        #endif
        return Self.key(ofTypeAt: type, idAt: id, in: resource)
    }

    /// The words of the identity of `resource` (the object these members were found in) when
    /// its type and id are both small ASCII strings (``JSONAPIResourceIndex/Key/smallWords``);
    /// `nil` otherwise, for ``key(in:)`` to read.
    @inline(__always)
    func smallIdentityWords(
        in resource: JSONObject
    ) -> (type: JSONAPIResourceIndex.Words, id: JSONAPIResourceIndex.Words)? {
        #if _pointerBitWidth(_64)
            guard type >= 0, id >= 0 else { return nil }
            let typeValue = UnsafeRawPointer(resource.valueAddress(at: type))
            let idValue = UnsafeRawPointer(resource.valueAddress(at: id))
            guard case .string = typeValue.assumingMemoryBound(to: JSONValue.self).pointee,
                case .string = idValue.assumingMemoryBound(to: JSONValue.self).pointee
            else { return nil }
            let typeWords = typeValue.load(as: (UInt64, UInt64).self)
            let idWords = idValue.load(as: (UInt64, UInt64).self)
            // The top three bits of a small ASCII string's second word are all set.
            guard (typeWords.1 & idWords.1) >> 61 == 0b111 else { return nil }
            return (JSONAPIResourceIndex.Words(words: typeWords), JSONAPIResourceIndex.Words(words: idWords))
        #else
            return nil
        #endif
    }

    /// ``key(in:)`` for an identity that is not two small strings.
    @inline(never)
    private static func key(ofTypeAt type: Int, idAt id: Int, in resource: JSONObject) -> JSONAPIResourceIndex.Key? {
        guard case .string(let typeName) = resource.valueAddress(at: type).pointee else { return nil }
        switch resource.valueAddress(at: id).pointee {
        case .string(let text): return JSONAPIResourceIndex.Key(type: typeName, id: text)
        case let other:
            guard let text = JSONAPIFormat.wireID(other) else { return nil }
            return JSONAPIResourceIndex.Key(type: typeName, id: text)
        }
    }
}
