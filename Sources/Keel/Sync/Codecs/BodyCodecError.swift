/// Why a ``BodyCodec`` could not write a value or read a body.
///
/// ``RESTSync`` reports it as ``SyncError/unwritableBody(mediaType:reason:)`` for a request
/// body (nothing is sent), and as ``SyncError/undecodableBody(status:reason:text:)`` for a
/// successful answer (the answer's text stays in the error).
///
/// ```swift
/// throw BodyCodecError("a property list has no null")
/// ```
public struct BodyCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a phrase: `"the body is not UTF-8"`.
    public var reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// let error = BodyCodecError("the body is not UTF-8")
    /// ```
    ///
    /// - Parameter reason: What is wrong.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    ///
    /// ```swift
    /// print(BodyCodecError("the body is not UTF-8"))  // the body is not UTF-8
    /// ```
    public var description: String { reason }
}
