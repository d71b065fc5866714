extension WireFormat {
    /// The multipart form of a save with files.
    ///
    /// The fields of the wire body in ``formNotation``, then each file named as its attribute would be, inside the root key
    /// when requests are wrapped (`user[avatar]`). A file replaces an attribute of its name.
    func multipartForm(_ body: JSONValue, files: [String: FilePart], for modelType: Model.Type) -> MultipartForm {
        let rootKey = requestRootKey(for: modelType)
        let named = files.sorted { $0.key < $1.key }.map { (wireName: keys.wireName(for: $0.key), file: $0.value) }
        var fields = body
        if case .object(var object) = fields {
            if let rootKey, case .object(var record) = object[rootKey] {
                for file in named { record.removeValue(forKey: file.wireName) }
                object[rootKey] = .object(record)
            } else if rootKey == nil {
                for file in named { object.removeValue(forKey: file.wireName) }
            }
            fields = .object(object)
        }
        let path = rootKey.map { [$0] } ?? []
        return MultipartForm(
            fields: fields,
            notation: formNotation,
            files: named.map { (formNotation.name(path + [$0.wireName]), $0.file) }
        )
    }
}
