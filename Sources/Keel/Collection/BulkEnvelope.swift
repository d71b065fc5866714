/// How a wire format carries a list of records in a bulk request and its answer: bare, or
/// under the plural root key when the format wraps records.
struct BulkEnvelope {
    let format: WireFormat
    let modelType: Model.Type

    private var singularRoot: String? { format.requestRootKey(for: modelType) }
    private var pluralRoot: String { format.root.names(for: modelType).plural }

    /// A model's create body without its root key.
    func record(in body: JSONValue) -> JSONValue {
        guard let singularRoot, let inner = body[singularRoot] else { return body }
        return inner
    }

    /// The request body for the records.
    func body(_ records: [JSONValue]) -> JSONValue {
        singularRoot == nil ? .array(records) : .object([pluralRoot: .array(records)])
    }

    /// The records of an answer or a refusal: a bare list, or one under the plural root key.
    func records(in body: JSONValue?) -> [JSONValue]? {
        if let list = body?.arrayValue { return list }
        return body?[pluralRoot]?.arrayValue
    }
}
