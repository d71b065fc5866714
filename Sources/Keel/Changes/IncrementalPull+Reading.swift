import Foundation

extension IncrementalPull {
    /// The query parameters of a pull from `cursor`; without one, those of a full fetch.
    func queryItems(after cursor: String?) -> [URLQueryItem] {
        var items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        if let cursor { items.append(URLQueryItem(name: parameter, value: cursor)) }
        return items
    }

    /// Whether a failed pull says the cursor is no longer valid: `410 Gone`, or a `400` or
    /// `422` whose body names the cursor's parameter.
    func rejectsCursor(_ error: SyncError) -> Bool {
        switch error.status {
        case 410: return true
        case 400, 422:
            if case .validationFailed(let errors, _) = error { return errors.attributes[parameter] != nil }
            if case .httpStatus(_, let body) = error { return body?.description.contains(parameter) ?? false }
            return false
        default: return false
        }
    }

    /// The changes an answer carries and the cursor after them.
    ///
    /// - Throws: `SyncError.invalidResponse(_:)` when the answer holds no list of records.
    func batch(
        from response: SyncResponse,
        collection: String,
        idAttribute: String,
        previousCursor: String?,
        isComplete: Bool
    ) throws(SyncError) -> ChangeBatch {
        let body = response.body ?? .null
        let list: [JSONValue]
        if let array = body.arrayValue {
            list = array
        } else if let recordsKey, let array = Self.value(at: recordsKey, in: body)?.arrayValue {
            list = array
        } else {
            throw .invalidResponse("expected a JSON array of records for \(collection), got \(body.debugDescription)")
        }
        var changes: [RemoteChange] = []
        for item in list {
            guard let record = item.objectValue, let id = record[idAttribute], !id.isNull else {
                throw .invalidResponse("a record of \(collection) has no \(idAttribute): \(item.debugDescription)")
            }
            let version = versionAttribute.flatMap { record[$0] }.flatMap(Self.text)
            if case .attribute(let name) = tombstones, let deleted = record[name], !deleted.isNull {
                changes.append(RemoteChange(.deleted, id: id, version: version))
            } else {
                changes.append(RemoteChange(.updated, id: id, attributes: record, version: version))
            }
        }
        if case .deletedIDs(let key) = tombstones, let ids = Self.value(at: key, in: body)?.arrayValue {
            changes += ids.map { RemoteChange(.deleted, id: $0) }
        }
        return ChangeBatch(
            collection: collection,
            changes: changes,
            cursor: nextCursor(in: response, records: list) ?? previousCursor,
            feed: Self.feed(for: collection),
            isComplete: isComplete
        )
    }

    /// The name a collection's pull cursor is kept under.
    static func feed(for collection: String) -> String { "pull:\(collection)" }

    private func nextCursor(in response: SyncResponse, records: [JSONValue]) -> String? {
        switch cursor {
        case .header(let name):
            return response.headers[name.lowercased()]
        case .bodyField(let key):
            return Self.value(at: key, in: response.body ?? .null).flatMap(Self.text)
        case .newestAttribute(let name):
            let values = records.compactMap { $0[name] }.compactMap(Self.text)
            return values.dropFirst().reduce(values.first) { newest, value in
                RecordVersion.isNewer(value, than: newest) ? value : newest
            }
        }
    }

    /// The value at a dotted key path of an object.
    private static func value(at keyPath: String, in body: JSONValue) -> JSONValue? {
        keyPath.split(separator: ".").reduce(Optional(body)) { value, key in value?[String(key)] }
    }

    /// A version or cursor as text: a string as it is, a number by its digits.
    private static func text(_ value: JSONValue) -> String? {
        if value.isNull { return nil }
        return value.stringValue ?? value.description
    }
}
