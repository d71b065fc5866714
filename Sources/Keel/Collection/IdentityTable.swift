/// A table from object identities to integers, for the bookkeeping of one `set` or
/// `remove` call: which models the input named, and where each removed model was.
///
/// Open addressing with linear probing over the objects' addresses, hashed by one
/// multiplication: `Set<ObjectIdentifier>` and `[ObjectIdentifier: Int]` hash each
/// identity with SipHash, about a hundred instructions, several times per model of a
/// large `set`. Entries are never removed.
struct IdentityTable {
    /// The addresses, `0` where a slot is empty (no object lives at address 0).
    private var addresses: ContiguousArray<UInt>
    /// The value of the entry in each slot.
    private var values: ContiguousArray<Int>
    /// How far to shift a hashed address to get a slot: 64 minus log2 of the slot count.
    private var shift: Int
    private(set) var count = 0

    /// Creates a table that holds `capacity` identities without growing.
    init(capacity: Int = 0) {
        var slotCount = 8
        while slotCount < capacity * 2 { slotCount *= 2 }
        addresses = ContiguousArray(repeating: 0, count: slotCount)
        values = ContiguousArray(repeating: 0, count: slotCount)
        shift = UInt.bitWidth - slotCount.trailingZeroBitCount
    }

    var isEmpty: Bool { count == 0 }

    /// Adds `object`'s identity with `value`, unless it is there already.
    ///
    /// - Returns: `true` when it was not in the table yet.
    @discardableResult
    mutating func insert(_ object: AnyObject, value: Int = 0) -> Bool {
        let address = Self.address(of: object)
        var slot = self.slot(for: address)
        while addresses[slot] != 0 {
            if addresses[slot] == address { return false }
            slot = (slot + 1) & (addresses.count - 1)
        }
        addresses[slot] = address
        values[slot] = value
        count += 1
        if count * 2 > addresses.count { grow() }
        return true
    }

    /// Whether `object`'s identity is in the table.
    func contains(_ object: AnyObject) -> Bool {
        position(of: object) != nil
    }

    /// The value stored with `object`'s identity, or `nil` when it is not in the table.
    func value(for object: AnyObject) -> Int? {
        position(of: object).map { values[$0] }
    }

    private func position(of object: AnyObject) -> Int? {
        let address = Self.address(of: object)
        var slot = self.slot(for: address)
        while addresses[slot] != 0 {
            if addresses[slot] == address { return slot }
            slot = (slot + 1) & (addresses.count - 1)
        }
        return nil
    }

    private static func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: ObjectIdentifier(object))
    }

    /// The first slot to probe for `address` (Fibonacci hashing: the top bits of the
    /// address times 2^64 divided by the golden ratio).
    private func slot(for address: UInt) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }

    private mutating func grow() {
        let oldAddresses = addresses
        let oldValues = values
        addresses = ContiguousArray(repeating: 0, count: oldAddresses.count * 2)
        values = ContiguousArray(repeating: 0, count: oldAddresses.count * 2)
        shift -= 1
        for position in oldAddresses.indices where oldAddresses[position] != 0 {
            var slot = self.slot(for: oldAddresses[position])
            while addresses[slot] != 0 { slot = (slot + 1) & (addresses.count - 1) }
            addresses[slot] = oldAddresses[position]
            values[slot] = oldValues[position]
        }
    }
}
