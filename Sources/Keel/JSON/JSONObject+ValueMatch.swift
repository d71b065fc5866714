// MARK: - Comparing values where the objects keep them

extension JSONObject {
    /// How the value at `position` compares with the value at `otherPosition` in `other`;
    /// both must be valid positions.
    ///
    /// Values with the same bits are equal (the same case with the same payload: the same
    /// number, the same string, the same array or object storage), so those are decided
    /// without copying either value out, and so are two integers; others are compared
    /// with `==`.
    @inline(__always)
    func match(ofValueAt position: Int, withValueAt otherPosition: Int, in other: JSONObject) -> ValueMatch {
        let value = valueAddress(at: position)
        let otherValue = other.valueAddress(at: otherPosition)
        if JSONValue.haveSameBits(UnsafeRawPointer(value), UnsafeRawPointer(otherValue)) {
            return .sameBits
        }
        // Two integers with other bits differ: decided without copying the values out.
        if case .int = value.pointee, case .int = otherValue.pointee { return .different }
        return Self.matchOutOfLine(value, otherValue)
    }

    /// How the value at `position`, which must be a valid position, compares with `value`:
    /// as ``match(ofValueAt:withValueAt:in:)``, without copying either value out.
    ///
    /// Two integers are compared here; other values out of line, where their bits are compared
    /// in memory: taking the address of `value` would give the caller a stack protector.
    @inline(__always)
    func match(ofValueAt position: Int, with value: JSONValue) -> ValueMatch {
        if case .int(let new) = value, case .int(let old) = valueAddress(at: position).pointee {
            return new == old ? .equal : .different
        }
        return matchInMemory(ofValueAt: position, with: value)
    }

    /// Whether the value at `position`, which must be a valid position, is the integer
    /// `integer`, tested in place: what a `set` of an integer that changes nothing needs,
    /// without a call.
    @inline(__always)
    func hasInteger(at position: Int, equalTo integer: Int) -> Bool {
        let value = valueAddress(at: position)
        // The case is tested in place; binding the payload copied the value through a call.
        guard case .int = value.pointee else { return false }
        // A multi-payload enum keeps each case's payload at offset zero (docs/ABI/TypeLayout.rst).
        return UnsafeRawPointer(value).load(as: Int.self) == integer
    }

    /// ``match(ofValueAt:with:)`` for values that are not both integers.
    @inline(never)
    private func matchInMemory(ofValueAt position: Int, with value: JSONValue) -> ValueMatch {
        let old = valueAddress(at: position)
        let match = withUnsafePointer(to: value) { value in
            Self.matchInPlace(UnsafeRawPointer(old), UnsafeRawPointer(value))
        }
        if let match { return match }
        return old.pointee == value ? .equal : .different
    }

    /// How the two values at these addresses compare when that is decided where they lie:
    /// the same bits, or two strings; `nil` for anything else.
    ///
    /// Comparing two strings as `JSONValue`s copies both out, retaining and releasing them.
    /// The cases are tested in place, and a multi-payload enum keeps each case's payload at
    /// offset zero (docs/ABI/TypeLayout.rst).
    @inline(__always)
    private static func matchInPlace(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> ValueMatch? {
        if JSONValue.haveSameBits(old, new) { return .sameBits }
        guard case .string = old.assumingMemoryBound(to: JSONValue.self).pointee,
            case .string = new.assumingMemoryBound(to: JSONValue.self).pointee
        else { return nil }
        let equal = old.assumingMemoryBound(to: String.self).pointee == new.assumingMemoryBound(to: String.self).pointee
        return equal ? .equal : .different
    }

    /// ``match(ofValueAt:withValueAt:in:)`` for values with other bits that are not both
    /// integers.
    @inline(never)
    private static func matchOutOfLine(
        _ value: UnsafePointer<JSONValue>,
        _ other: UnsafePointer<JSONValue>
    ) -> ValueMatch {
        let match = matchInPlace(UnsafeRawPointer(value), UnsafeRawPointer(other))
        if let match { return match }
        return value.pointee == other.pointee ? .equal : .different
    }

    /// How two values compare: see ``match(ofValueAt:withValueAt:in:)``.
    enum ValueMatch {
        /// The same bits, so equal without a comparison.
        case sameBits
        /// Equal by `==`, with other bits (such as `1` and `1.0`) or not compared by bits (two
        /// equal integers).
        case equal
        /// Not equal.
        case different
    }
}
