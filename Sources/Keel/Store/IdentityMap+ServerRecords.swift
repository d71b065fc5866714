extension IdentityMap {
    /// Reads a server record through the wire format of `type` before its id is looked up (a
    /// Rails record's id is inside its root key); one that does not fit goes on as it is, as the
    /// model's own `parse: true` does.
    ///
    /// Out of line: a document read or a collection's load hands over records read already, and
    /// inlined, this rarer path spread ``findOrInsert(_:collection:attributes:options:)`` over
    /// more of the instruction cache.
    ///
    /// - Returns: The record as sent, for a class that keeps its ``Model/remoteAttributes``.
    @inline(never)
    static func readThroughWireFormat(_ attributes: inout Attributes, of type: Model.Type) -> JSONValue? {
        let sent: JSONValue? = type.keepsRemoteAttributes ? .object(attributes) : nil
        if let record = try? type.wireFormat.record(from: .object(attributes), for: type).objectValue {
            attributes = record
        }
        return sent
    }
}
