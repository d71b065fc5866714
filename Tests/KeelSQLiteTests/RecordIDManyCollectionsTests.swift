import Keel
import KeelSQLite
import Testing

/// Ids assigned by creates without an id in more collections than the store remembers the
/// next id of (it keeps the states its creates left for the last eight collections and asks
/// SQLite for any other): every collection still numbers its records 1, 2, 3, ….
struct RecordIDManyCollectionsTests {
    @Test(arguments: [Backend.sqlite, Backend.sqliteInMemory])
    func createsRoundRobinInTwelveCollectionsNumberEachFromOne(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let collections = (0..<12).map { "/lists/\($0)/items" }
            var ids: [String: [JSONValue?]] = [:]
            for _ in 1...3 {
                for collection in collections {
                    ids[collection, default: []].append(try await sync.send(.create, collection, body: [:]).body?["id"])
                }
            }
            for collection in collections { #expect(ids[collection] == [1, 2, 3]) }
        }
    }

    @Test(arguments: [Backend.sqlite, Backend.sqliteInMemory])
    func aCollectionLeftBehindByEightOthersContinuesItsNumbering(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.create, "/notes", body: ["id": 10])
            for index in 0..<9 { try await sync.send(.create, "/other/\(index)", body: [:]) }
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 11)
            try await sync.send(.delete, "/notes/11")
            #expect(try await sync.send(.create, "/notes", body: [:]).body?["id"] == 12)
        }
    }
}
