import Foundation
import Keel

extension CachingSync {
    /// Answers a read from the local copy: a scoped list from its collection's records.
    func readLocal(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> SyncResponse {
        guard let scoped else { return try await local.read(request) }
        var response = try await local.read(scoped.collectionRequest)
        response.body = response.body?.arrayValue.map { .array($0.filter(scoped.includes)) } ?? response.body
        return response
    }

    /// Whether the local copy can answer a read: for a scoped list, whether it holds the
    /// collection.
    func holdsLocal(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> Bool {
        try await local.holds(scoped?.collectionRequest ?? request)
    }

    /// Stores a scoped list's records in its collection and, when the list is complete,
    /// deletes the local records in its scope that the server no longer returns, except
    /// those with queued changes; answers with the local list, which shows queued changes.
    func storeScoped(
        _ records: [RemoteRecord],
        answering response: SyncResponse,
        scoped: ScopedRead,
        isComplete: Bool
    ) async throws(SyncError) -> SyncResponse {
        let collection = scoped.list.collection
        try await local.store(records, in: collection, isComplete: false)
        guard isComplete else { return response }
        let returned = Set(records.compactMap { $0.attributes[local.idAttribute] }.map(CachePath.key))
        let stored = try await local.read(scoped.collectionRequest).body?.arrayValue ?? []
        let orphans = stored.filter(scoped.includes).compactMap { $0[local.idAttribute] }.filter {
            !$0.isNull && !returned.contains(CachePath.key($0))
        }
        if !orphans.isEmpty {
            // The store's server-change batch deletes in one transaction and holds back the
            // records that gained a queued change since the read above.
            let batch = ChangeBatch(
                collection: collection,
                changes: orphans.map { RemoteChange(.deleted, id: $0) },
                cursor: nil,
                feed: "list:\(scoped.list.route.pattern)"
            )
            _ = try await changeStore().store(batch, versionCheck: configuration.versionCheck(for: collection))
        }
        var merged = response
        merged.body = try await readLocal(scoped.collectionRequest, scoped: scoped).body
        return merged
    }
}
