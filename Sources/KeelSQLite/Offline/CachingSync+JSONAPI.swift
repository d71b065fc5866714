import Foundation
import Keel

// The local copy keeps JSON:API resource objects as the server sent them (`type`, `id`,
// `attributes`, `relationships`, `meta`, `links`), in the collection of the list they were
// read from (a scoped list's collection for a nested route), or, for an `included` one, in
// its type's collection (`CachingSync.resourceTypes`: the configuration's and those a
// `Store` registered), else where the server routes the type by default (`JSONAPIRoute`).
// Local answers to a JSON:API read are documents built from them, which `WireFormat.jsonAPI`
// reads as it reads a server's.
extension CachingSync {
    /// The JSON:API document of a server's answer to a read: an object with the top-level
    /// members of a document only, whose `data` is `null`, a resource object or an array of
    /// them, answering a request that asked for JSON:API or sent as JSON:API; `nil` otherwise.
    static func jsonAPIDocument(_ response: SyncResponse, answering request: SyncRequest) -> JSONObject? {
        guard let document = response.body?.objectValue, let data = document["data"],
            document.keys.allSatisfy(jsonAPITopLevel.contains),
            asksForJSONAPI(request) || response.headers["content-type"]?.contains(JSONAPIFormat.mediaType) == true
        else { return nil }
        if data.isNull { return document }
        let resources = data.arrayValue ?? [data]
        return resources.allSatisfy { $0.objectValue.map(JSONAPIResource.isResource) ?? false } ? document : nil
    }

    /// Whether a request's `Accept` names JSON:API's media type.
    static func asksForJSONAPI(_ request: SyncRequest) -> Bool {
        request.headers.contains { $0.key.lowercased() == "accept" && $0.value.contains(JSONAPIFormat.mediaType) }
    }

    // MARK: - Storing a server's document

    /// Stores a server's JSON:API document: its `included` resources in their types'
    /// collections, a list's resources in the list's collection (or a scoped list's; reconciled
    /// when the list is complete), a single resource in its collection; answers with the
    /// document, its `data` the local copy's where queued changes show.
    func storeDocument(
        _ document: JSONObject,
        answering response: SyncResponse,
        to request: SyncRequest,
        scoped: ScopedRead?
    ) async throws(SyncError) -> SyncResponse {
        let query = ResourcePath.queryItems(of: request)
        let isSparse = query.contains { $0.name.hasPrefix("fields[") }
        let resource = ResourcePath(request.url)
        let types = resourceTypes
        if let list = document["data"]?.arrayValue {
            let resources = list.compactMap(\.objectValue)
            let collection = scoped?.list.collection ?? resource.path
            let primaryType = resources.first?["type"]?.stringValue
            try await storeIncluded(document, besides: collection, primaryType: primaryType, types, isSparse: isSparse)
            // A list read with a filter or a page, or with a next page, is not the whole
            // collection: its records are stored, and nothing is deleted.
            let isComplete =
                query.allSatisfy { Self.shapesDocument($0.name) } && (document["links"]?["next"] ?? .null).isNull
            let records = try await remoteRecords(resources, in: collection, isSparse: isSparse)
            if let scoped {
                let stored = try await storeScoped(records, answering: response, scoped: scoped, isComplete: isComplete)
                return isComplete ? answering(response, with: stored.body) : response
            }
            try await local.store(records, in: collection, isComplete: isComplete)
            guard isComplete else { return response }
            return answering(response, with: try await local.read(Self.bareRead(of: request, at: collection)).body)
        }
        guard let object = document["data"]?.objectValue, let id = object["id"], !id.isNull,
            let collection = object["type"]?.stringValue.flatMap({ types[$0] }) ?? resource.parent
        else { return response }
        try await storeIncluded(
            document,
            besides: collection,
            primaryType: object["type"]?.stringValue,
            types,
            isSparse: isSparse
        )
        let records = try await remoteRecords([object], in: collection, isSparse: isSparse, headers: response.headers)
        try await local.store(records, in: collection, isComplete: false)
        let key = CachePath.key(id)
        let queued = try await local.queuedChanges().filter {
            $0.collection == CachePath.normalized(collection) && $0.recordID == key
        }
        guard !queued.isEmpty else { return response }
        let stored = try await local.read(Self.bareRead(of: request, at: collection + "/" + key))
        var answer = answering(response, with: stored.body)
        answer.headers.merge(stored.headers.filter { $0.key == SyncState.headerName.lowercased() }) { $1 }
        return answer
    }

    /// The server's answer with the local copy's `data`.
    private func answering(_ response: SyncResponse, with data: JSONValue?) -> SyncResponse {
        guard var document = response.body?.objectValue, let data else { return response }
        document["data"] = data
        var answer = response
        answer.body = .object(document)
        return answer
    }

    /// Stores a document's `included` resources, each in its type's collection
    /// (``resourceTypes``), else in the one the server routes the type at by default beside
    /// the primary data's collection (``JSONAPIRoute``); a type with neither is not stored.
    private func storeIncluded(
        _ document: JSONObject,
        besides primary: String,
        primaryType: String?,
        _ types: [String: String],
        isSparse: Bool
    ) async throws(SyncError) {
        var byCollection: [String: [JSONObject]] = [:]
        var order: [String] = []
        for value in document["included"]?.arrayValue ?? [] {
            guard let resource = value.objectValue, let type = resource["type"]?.stringValue,
                let collection = types[type]
                    ?? JSONAPIRoute.collection(of: type, besides: primary, primaryType: primaryType)
            else { continue }
            if byCollection[collection] == nil { order.append(collection) }
            byCollection[collection, default: []].append(resource)
        }
        for collection in order {
            let records = try await remoteRecords(byCollection[collection] ?? [], in: collection, isSparse: isSparse)
            try await local.store(records, in: collection, isComplete: false)
        }
    }

    /// Resources as records to store, with their versions; a sparse fieldset's resources
    /// merged into the stored ones, so that the fields they leave out stay.
    private func remoteRecords(
        _ resources: [JSONObject],
        in collection: String,
        isSparse: Bool,
        headers: [String: String] = [:]
    ) async throws(SyncError) -> [RemoteRecord] {
        let check = configuration.versionCheck(for: collection)
        var records: [RemoteRecord] = []
        records.reserveCapacity(resources.count)
        for resource in resources {
            var record = resource
            if isSparse, let id = resource["id"], let stored = try await local.record(CachePath.key(id), in: collection)
            {
                record = JSONAPIResource.merged(stored, resource)
            }
            records.append(
                RemoteRecord(attributes: record, version: Self.version(of: record, headers: headers, check: check))
            )
        }
        return records
    }

    // MARK: - Answering from the local copy

    /// Answers a JSON:API read from the local copy: `{"data": [...]}` for a list (the stored
    /// resources a ``JSONAPILocalQuery`` keeps, in its order; a scoped list's from its
    /// collection), `{"data": {...}}` for a record, each with `included`, the stored
    /// resources the `include` paths reach, when the request has `include`.
    ///
    /// - Throws: `SyncError.unevaluableQuery(parameter:reason:)` for a list read with a
    ///   parameter the local copy cannot evaluate as the server would.
    func readLocalDocument(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> SyncResponse {
        let query = ResourcePath.queryItems(of: request)
        let resource = ResourcePath(request.url)
        var response: SyncResponse
        let collection: String
        if let scoped {
            response = try await readLocal(request, scoped: scoped)
            collection = scoped.list.collection
        } else {
            response = try await local.read(Self.bareRead(of: request, at: resource.path))
            collection = response.body?.arrayValue == nil ? resource.parent ?? resource.path : resource.path
        }
        var primary: [JSONObject]
        if let list = response.body?.arrayValue {
            let stored = list.compactMap(\.objectValue)
            let listQuery = try JSONAPILocalQuery(query, resources: stored, style: request.pageStyle)
            let total: Int
            (primary, total) = listQuery.answer(stored)
            response.body = Self.document(
                primary,
                next: listQuery.neighbour(1, of: query, total: total).map { Self.url(request.url, query: $0) },
                previous: listQuery.neighbour(-1, of: query, total: total).map { Self.url(request.url, query: $0) },
                total: total,
                style: request.pageStyle
            )
        } else if let object = response.body?.objectValue {
            primary = [object]
            response.body = ["data": .object(object)]
        } else {
            return response
        }
        let paths = query.filter { $0.name == "include" }.flatMap { ($0.value ?? "").split(separator: ",") }
        guard !paths.isEmpty else { return response }
        var finder = LocalResourceFinder(
            local: local,
            collections: resourceTypes,
            besides: collection,
            primaryType: primary.first?["type"]?.stringValue
        )
        let included = try await finder.included(
            of: primary,
            paths: paths.map { $0.split(separator: ".").map(String.init) }
        )
        if !included.isEmpty { response.body?.setIncluded(included) }
        return response
    }

    /// A list document of `resources`, a page cut from the list naming its neighbours in
    /// `links` as a JSON:API server does, with the list's total where a `Paginator`'s style
    /// reads it.
    private static func document(
        _ resources: [JSONObject],
        next: String?,
        previous: String?,
        total: Int,
        style: PageStyle?
    ) -> JSONValue {
        var document: JSONObject = ["data": .array(resources.map(JSONValue.object))]
        var links: JSONObject = [:]
        if let next { links["next"] = .string(next) }
        if let previous { links["prev"] = .string(previous) }
        if !links.isEmpty { document["links"] = .object(links) }
        switch style {
        case .jsonAPI(_, _, let totalKeyPath?), .jsonAPIOffset(_, _, let totalKeyPath?):
            return JSONValue.object(document).setting(
                .int(total),
                at: totalKeyPath.split(separator: ".").map(String.init)
            )
        default:
            return .object(document)
        }
    }

    /// Whether a query parameter only shapes a JSON:API document (which related resources it
    /// includes, which fields, in which order) without choosing its records.
    static func shapesDocument(_ name: String) -> Bool {
        name == "include" || name == "sort" || name.hasPrefix("fields[")
    }

    /// A read of `path` without query parameters, with the request's headers.
    static func bareRead(of request: SyncRequest, at path: String) -> SyncRequest {
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.path = path
        var read = SyncRequest(method: .read, url: components?.url ?? request.url)
        read.headers = request.headers
        return read
    }
}

extension JSONValue {
    /// Sets a document's `included`.
    fileprivate mutating func setIncluded(_ included: [JSONValue]) {
        guard var document = objectValue else { return }
        document["included"] = .array(included)
        self = .object(document)
    }
}
