import Keel
import Testing

/// The sync-state header is found among a response's headers however many there are: by its
/// name among up to four, by a lookup above, in any case of the name as sent.
struct SyncStateHeaderTests {
    /// `count` other headers, such as a store's `ETag`.
    private static func otherHeaders(_ count: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("x-other-\($0)", "pending") })
    }

    @Test(arguments: 0...7)
    func theStateIsReadBesideAnyNumberOfOtherHeaders(others: Int) {
        for (value, state) in [("pending", SyncState.pending), ("conflict", .conflict), ("synced", .synced)] {
            var headers = Self.otherHeaders(others)
            headers[SyncState.headerName] = value
            #expect(SyncState(response: SyncResponse(status: 200, headers: headers)) == state)
        }
        var failed = Self.otherHeaders(others)
        failed["X-KEEL-SYNC-STATE"] = "failed 409"
        #expect(SyncState(response: SyncResponse(headers: failed)) == .failed(.httpStatus(409, body: nil)))
    }

    @Test(arguments: 0...7)
    func withoutTheHeaderTheStateIsSynced(others: Int) {
        var headers = Self.otherHeaders(others)
        headers["etag"] = "\"7\""
        headers["x-keel-sync-stat"] = "pending"
        headers["x-keel-sync-states"] = "pending"
        #expect(SyncState(response: SyncResponse(headers: headers)) == .synced)
        #expect(SyncState(response: SyncResponse(headers: Self.otherHeaders(others))) == .synced)
    }
}
