import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// The reads and creates of one record bind their parameters one by one, a store in memory
/// answers a read of one record without a read transaction, and a create with an explicit
/// id leaves its collection's state for the next create: the answers are those of the REST
/// semantics, for ids of both ranges and at their edges, a missing record and a taken id.
struct RecordOneRowTests {
    /// Ids of the integer range (0, 7, 2³² − 1) and of the second range (2³², `007`, text,
    /// a negative integer, empty text).
    static let ids: [JSONValue] = [0, 7, .int(0xFFFF_FFFF), .int(0x1_0000_0000), "007", "note", -3, ""]

    @Test func anInMemoryReadOfOneRecordAnswersInPlaceAsTheRESTSemanticsDo() async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        for id in Self.ids where id != "" {
            try await store.send(.create, "/notes", body: ["id": id, "title": .string("note \(id)")])
        }
        try await store.send(.patch, "/notes/7", body: ["done": true])

        for id in Self.ids where id != "" {
            let request = SyncRequest(method: .read, url: try #require(URL(string: "/notes/\(segment(id))")))
            let inPlace = try #require(store.readInPlace(request))
            #expect(inPlace == (try semantics(request, in: store)))
            #expect(try inPlace.get().body?["id"] == id)
            #expect(try inPlace.get().headers["etag"] == (id == 7 ? "\"2\"" : "\"1\""))
        }
    }

    @Test func anInMemoryReadOfAMissingRecordIsRefusedAsTheRESTSemanticsDo() async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        try await store.send(.create, "/notes", body: ["id": 7])

        for path in ["/notes/8", "/notes/07", "/notes/4294967296", "/notes/x", "/other/7"] {
            let request = SyncRequest(method: .read, url: try #require(URL(string: path)))
            let answer = try #require(store.readInPlace(request))
            #expect(answer == (try semantics(request, in: store)))
            // A record of a collection that never held one is an empty list.
            switch answer {
            case .success(let response): #expect(!path.hasPrefix("/notes/") && response.body == [])
            case .failure(let error): #expect(path.hasPrefix("/notes/") && error.status == 404)
            }
        }
    }

    @Test func oneRecordIsReadAndItsVersionFoundByEitherKey() throws {
        let connection = try SQLiteSchema.open(path: ":memory:", mode: .readWrite)
        defer { connection.close() }
        var state = try connection.createCollection("/notes")
        for id in Self.ids {
            let key = ResourcePath.segment(for: id)
            state = try connection.insert(["id": id], id: key, into: state, nextID: state.nextID)
            try connection.replace(["id": id, "title": "again"], key: key, in: "/notes")
        }

        for id in Self.ids {
            let key = ResourcePath.segment(for: id)
            let found = try #require(try connection.versionedRecord(key, in: "/notes", idAttribute: "id"))
            #expect(found.record == ["id": id, "title": "again"])
            #expect(found.version == 2)
            #expect(try connection.version(of: key, in: "/notes") == 2)
        }
        for missing in ["8", "07", "4294967297", "-4", "x"] {
            #expect(try connection.versionedRecord(missing, in: "/notes", idAttribute: "id") == nil)
            #expect(try connection.version(of: missing, in: "/notes") == nil)
        }
    }

    @Test(arguments: RecordOneRowTests.ids)
    func aCreateUnderATakenIDIsRefusedAndChangesNothing(id: JSONValue) async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        try await store.send(.create, "/notes", body: ["id": id, "title": "first"])

        let error = await #expect(throws: SyncError.self) {
            try await store.send(.create, "/notes", body: ["id": id, "title": "second"])
        }
        #expect(error?.status == 422)
        let list = try await store.send(.read, "/notes")
        #expect(list.body == [["id": id, "title": "first"]])
        let next = max(1, (id.intValue ?? 0) + 1)
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == .int(next))
    }

    @Test func aCreateWithAnExplicitIDLeavesTheStateItStoredForTheNextCreate() async throws {
        let store = try SQLiteSync.inMemory()
        defer { store.close() }
        let bodies: [JSONValue] = [
            ["id": 5], ["id": 3], ["id": "abc"], ["id": .int(0x1_0000_0000)], ["id": "007"], [:], ["id": 0xFFFF_FFFF],
        ]
        for body in bodies {
            try await store.send(.create, "/notes", body: body)
            let (remembered, stored) = try store.connection.withLock { connection in
                let connection = try #require(connection)
                return (
                    connection.nextIDMemo.states(atDataVersion: connection.dataVersion())["/notes"],
                    try connection.collectionState("/notes")
                )
            }
            #expect(remembered != nil)
            #expect(remembered == stored)
        }
        // 2³² moved the numbering past it; the create without an id took 2³² + 1.
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == .int(0x1_0000_0000 + 2))
    }

    /// The path segment of an id, percent-encoded.
    private func segment(_ id: JSONValue) -> String {
        ResourcePath.segment(for: id).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
    }

    /// The answer of the REST semantics in a read transaction, as a store with no fast path
    /// gives it.
    private func semantics(_ request: SyncRequest, in store: SQLiteSync) throws -> Result<SyncResponse, SyncError> {
        try store.connection.withLock { connection in
            let connection = try #require(connection)
            return Result { () throws(SyncError) in
                try connection.perform(request, idAttribute: "id", beforeCommit: nil)
            }
        }
    }
}
