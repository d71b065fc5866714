// MARK: - The errors of a read

extension JSONAPIReader {
    /// The error for a relationship's `data` member that is no resource identifier.
    @inline(never)
    static func notAnIdentifier(_ identifier: JSONValue, at place: UnsafePointer<Place>) -> SyncError {
        .unmappableResponse(
            keyPath: place.pointee.keyPath,
            reason: "a resource identifier is {\"type\", \"id\"}, not \(identifier.debugDescription)"
        )
    }

    /// The error for `attributes` that are no object, in the resource at `place`.
    @inline(never)
    static func notAnObject(_ attributes: JSONValue, at place: UnsafePointer<Place>) -> SyncError {
        unmappable(
            at: place,
            member: ".attributes",
            reason: "attributes are an object, not \(attributes.debugDescription)"
        )
    }

    /// The error for a `member` (`.attributes`, `.id`) of the resource at `place`.
    @inline(never)
    static func unmappable(at place: UnsafePointer<Place>, member: String, reason: String) -> SyncError {
        .unmappableResponse(keyPath: place.pointee.keyPath + member, reason: reason)
    }

    /// The error for the `data` of a relationship (`linkage`) of the resource at `place`.
    @inline(never)
    static func unmappable(at place: UnsafePointer<Place>, linkage: Place.Step, reason: String) -> SyncError {
        withUnsafePointer(to: Place(linkage, in: place)) {
            .unmappableResponse(keyPath: $0.pointee.keyPath, reason: reason)
        }
    }
}
