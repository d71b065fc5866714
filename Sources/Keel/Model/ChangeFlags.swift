/// The flags of ``ChangeOptions`` packed in one integer that is zero when every flag has its
/// default value.
///
/// Every event built from a call's options asks whether the flags are the defaults (an event
/// keeps default options as nothing at all): packed, that is one comparison instead of one per
/// flag, and options are two fields, the flags and their out-of-line part, which the compiler
/// copies and destroys field by field.
@usableFromInline struct ChangeFlags {
    /// The flags, one bit for each `Bool` and two (whether set, and the value) for each `Bool?`.
    @usableFromInline var bits: UInt16

    /// The bit of ``ChangeOptions/silent``.
    static let silent: UInt16 = 1 << 0
    /// The bit of ``ChangeOptions/unset``.
    static let unset: UInt16 = 1 << 1
    /// The bit of ``ChangeOptions/wireFormatApplied``.
    static let wireFormatApplied: UInt16 = 1 << 2
    /// The position of the lower of the two bits of ``ChangeOptions/validate`` (a shift, not a mask).
    static let validate: UInt16 = 3
    /// The position of the lower of the two bits of ``ChangeOptions/parse`` (a shift, not a mask).
    static let parse: UInt16 = 5
    /// The position of the lower of the two bits of ``ChangeOptions/reportsInvalid`` (a shift, not a mask).
    static let reportsInvalid: UInt16 = 7

    /// Flags with every one at its default.
    @inlinable init() { bits = 0 }

    /// Whether every flag has its default value.
    @inlinable var areDefaults: Bool { bits == 0 }

    /// Whether the flag with bit `bit` is set.
    @inline(__always)
    func isSet(_ bit: UInt16) -> Bool { bits & bit != 0 }

    /// Sets or clears the flag with bit `bit`.
    @inline(__always)
    mutating func set(_ bit: UInt16, to value: Bool) {
        bits = value ? bits | bit : bits & ~bit
    }

    /// The optional flag whose two bits start at `shift`: `nil` unless the lower one is set, then
    /// the upper one.
    @inline(__always)
    func optional(at shift: UInt16) -> Bool? {
        guard bits & (1 << shift) != 0 else { return nil }
        return bits & (2 << shift) != 0
    }

    /// Sets the optional flag whose two bits start at `shift`.
    @inline(__always)
    mutating func setOptional(at shift: UInt16, to value: Bool?) {
        bits &= ~(3 << shift)
        if let value { bits |= (value ? 3 : 1) << shift }
    }
}
