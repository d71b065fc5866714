import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// Records keyed by rowid keep their collection's order, and text bound in place (without
/// SQLite's copy) finds the record it names, whatever its length or bytes.
struct RecordRowidTests {
    @Test func recordsOfInterleavedCollectionsKeepTheirOrderAcrossDeletes() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            for _ in 1...3 {
                try await store.send(.create, "/notes", body: [:])
                try await store.send(.create, "/tags", body: [:])
            }
            // The newest record of the file goes; the next one still lands last in its collection.
            try await store.send(.delete, "/tags/3")
            try await store.send(.delete, "/notes/3")
            try await store.send(.create, "/tags", body: [:])
            try await store.send(.create, "/notes", body: ["id": 0])
            try await store.send(.patch, "/notes/1", body: ["done": true])

            #expect(try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [1, 2, 0])
            #expect(try await store.send(.read, "/tags").body?.arrayValue?.compactMap { $0["id"] } == [1, 2, 4])
            #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 4)
        }
    }

    @Test func idsOfEveryLengthAndByteAreReadBackExactly() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            let ids = ["x", String(repeating: "long", count: 200), "é", "日本", "x2", "a b"]
            for id in ids { try await store.send(.create, "/notes", body: ["id": .string(id), "name": .string(id)]) }

            // Each read binds text of another length in the same held statement.
            for id in ids + ids.reversed() {
                let segment = try #require(id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
                #expect(try await store.send(.read, "/notes/\(segment)").body?["name"] == .string(id))
            }
            await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/long") }
            #expect(try store.records(at: "/notes").map { $0["name"] } == ids.map { .string($0) })
        }
    }

    @Test func anEmptyCollectionNameAndIDAreBoundAsTextNotNull() throws {
        let connection = try SQLiteSchema.open(path: ":memory:", mode: .readWrite)
        defer { connection.close() }
        let state = try connection.createCollection("")
        _ = try connection.insert(["title": "Blank"], id: "", into: state, nextID: 1)

        #expect(try connection.rows("SELECT typeof(path) FROM collections") == [["text"]])
        #expect(try connection.rows("SELECT typeof(id), key < 0 FROM records") == [["text", "1"]])
        #expect(try connection.versionedRecord("", in: "", idAttribute: "id")?.version == 1)
        #expect(try connection.version(of: "", in: "") == 1)
    }
}
