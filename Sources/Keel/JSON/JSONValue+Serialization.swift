extension JSONValue {
    /// Temporary stand-in until the serializer lands.
    func jsonString() -> String { String(describing: self) }
}
