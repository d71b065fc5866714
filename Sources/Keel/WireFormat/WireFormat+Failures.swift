extension WireFormat {
    /// A backend's failure in the app's terms: validation errors under app names, JSON:API
    /// error objects of a 400, 409 or 422 as validation errors, and a 406 or 415 as
    /// ``SyncError/mediaTypeRefused(status:mediaType:body:)`` when the format names a media
    /// type.
    func appFailure(_ error: SyncError) -> SyncError {
        switch error {
        case .validationFailed(let errors, let status):
            return .validationFailed(appErrors(errors), status: status)
        case .httpStatus(let status, let body):
            if let mediaType, status == 406 || status == 415 {
                return .mediaTypeRefused(status: status, mediaType: mediaType, body: body)
            }
            if jsonAPIFormat != nil, status == 400 || status == 409 || status == 422,
                let errors = body.flatMap(jsonAPIErrors)
            {
                return .validationFailed(errors, status: status)
            }
            return error
        default:
            return error
        }
    }

    /// The messages of a JSON:API `errors` array: each error's `detail` (else `title`, else
    /// `code`) under the app name its `source.pointer` names (`/data/attributes/title` →
    /// `title`, `/data/relationships/author` → `author`, deeper attribute pointers as
    /// `address.city`), model-wide for any other pointer or none, and for the pointer
    /// ActiveModelSerializers gives Rails' model-wide errors (`/data/attributes/base`); `nil`
    /// for a body without error objects. A detail that starts with its member's wire name
    /// (Drupal's `title: This value should not be null.`) loses that prefix.
    private func jsonAPIErrors(_ body: JSONValue) -> ValidationError? {
        guard let list = body["errors"]?.arrayValue, !list.isEmpty else { return nil }
        var result = ValidationError()
        for value in list {
            guard let error = value.objectValue else { return nil }
            var message =
                error["detail"]?.stringValue ?? error["title"]?.stringValue ?? error["code"]?.stringValue
                ?? "is invalid"
            let pointer = error["source"]?["pointer"]?.stringValue
            let path = pointer.flatMap(attributePath)
            if path != nil, let name = pointer?.split(separator: "/").dropFirst(2).first,
                message.hasPrefix("\(name): ")
            {
                message = String(message.dropFirst(name.count + 2))
            }
            result.add(message, for: path)
        }
        return result
    }

    /// The app path of an attribute or relationship pointer; `nil` for the resource itself.
    private func attributePath(_ pointer: String) -> String? {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacing("~1", with: "/").replacing("~0", with: "~")
        }
        guard tokens.count >= 3, tokens[0] == "data", tokens[1] == "attributes" || tokens[1] == "relationships"
        else { return nil }
        if tokens.count == 3, ValidationError.isModelWide(String(tokens[2])) { return nil }
        return keys.appPath(for: tokens[2...].joined(separator: "."))
    }
}
