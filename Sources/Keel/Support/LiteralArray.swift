extension Array {
    /// Whether only this code holds the array's storage: then a literal's elements can be moved out
    /// of it one by one (`popLast`) instead of copied, so that freeing the array destroys none.
    ///
    /// The runtime frees an array's elements through generic value witnesses, about a hundred
    /// instructions per `JSONValue`.
    ///
    /// A literal of constants is a static array shared by every evaluation, and is not held
    /// alone. Without an Objective-C runtime an array is one reference to its native storage,
    /// which `_isUnique_native` checks as `isKnownUniquelyReferenced` checks a class
    /// reference; with one, an array may be bridged storage, and this is always `false`.
    @inline(__always)
    mutating func isHeldAlone() -> Bool {
        #if _runtime(_ObjC)
            return false
        #else
            return _isUnique_native(&self)
        #endif
    }
}
