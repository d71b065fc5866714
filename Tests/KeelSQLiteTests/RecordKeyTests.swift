import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// Schema 5 keys records of integer ids by their collection's number and the id, and keeps
/// every other id in a second range: no id names another record, at the range's ends or
/// past them, and lists keep their insertion order whatever the keys' order.
struct RecordKeyTests {
    @Test func theTextID007AndTheInteger7AreDistinctRecords() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["id": 7, "title": "Seven"])
        try await store.send(.create, "/notes", body: ["id": "007", "title": "Bond"])
        try await store.send(.create, "/notes", body: ["id": "7.0", "title": "Decimal"])

        #expect(try await store.send(.read, "/notes/7").body == ["id": 7, "title": "Seven"])
        #expect(try await store.send(.read, "/notes/007").body == ["id": "007", "title": "Bond"])
        #expect(
            try store.execute("SELECT typeof(id), id FROM records ORDER BY seq") == [
                ["text", "7"], ["text", "007"], ["text", "7.0"],
            ]
        )
        try await store.send(.delete, "/notes/007")
        #expect(try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [7, "7.0"])
        await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/007") }
    }

    @Test func idsAtAndPastTheEndsOfTheIntegerRangeAreEachTheirOwnRecord() async throws {
        let store = try SQLiteSync.inMemory()
        let ids: [JSONValue] = [0, 4_294_967_295, 4_294_967_296, -1, "01"]
        for id in ids { try await store.send(.create, "/notes", body: ["id": id, "name": id]) }

        for id in ids {
            let segment = ResourcePath.segment(for: id)
            #expect(try await store.send(.read, "/notes/\(segment)").body?["name"] == id)
        }
        #expect(try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == ids)
        // Numbering continues past the largest id, into the second range.
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 4_294_967_297)
        #expect(try await store.send(.read, "/notes/4294967297").body?["id"] == 4_294_967_297)
        #expect(try store.execute("SELECT count(*) FROM records WHERE key >= 0") == [["2"]])
    }

    @Test func aCollectionNumberedPastTheRangeKeepsEveryRecordInTheSecondRange() async throws {
        let store = try SQLiteSync.inMemory()
        _ = try store.execute("INSERT INTO collections(number, path) VALUES (2147483648, '/big')")
        try await store.send(.create, "/big", body: [:])
        try await store.send(.create, "/big", body: ["id": 7])
        try await store.send(.create, "/big", body: [:])

        #expect(try await store.send(.read, "/big").body?.arrayValue?.compactMap { $0["id"] } == [1, 7, 8])
        #expect(try await store.send(.read, "/big/7").body == ["id": 7])
        #expect(try store.execute("SELECT count(*) FROM records WHERE key < 0") == [["3"]])
    }

    @Test func aListKeepsTheInsertionOrderWhenKeysAreOutOfIt() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["id": 5])
        try await store.send(.create, "/notes", body: [:])
        try await store.send(.create, "/notes", body: ["id": 1])
        try await store.send(.create, "/notes", body: ["id": "x"])
        try await store.send(.update, "/notes/20", body: [:])
        try await store.send(.create, "/notes", body: [:])

        #expect(
            try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [5, 6, 1, "x", 20, 7]
        )
        #expect(try store.records(at: "/notes").compactMap { $0["id"] } == [5, 6, 1, "x", 20, 7])
    }

    @Test func deletingTheNewestRecordKeepsItsIDAndPlaceFromBeingGivenAgain() async throws {
        let store = try SQLiteSync.inMemory()
        for _ in 1...3 { try await store.send(.create, "/notes", body: [:]) }
        try await store.send(.create, "/notes", body: ["id": "x"])
        try await store.send(.delete, "/notes/3")
        try await store.send(.delete, "/notes/2")
        try await store.send(.create, "/notes", body: [:])
        try await store.send(.create, "/notes", body: ["id": 2])

        #expect(try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["id"] } == [1, "x", 4, 2])
        #expect(try await store.send(.create, "/notes", body: [:]).body?["id"] == 5)
    }

    @Test func aCreateUnderATakenIDIsRefusedAsBeforeAndWritesNothing() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "One"])
        try await store.send(.create, "/notes", body: ["id": "x", "title": "X"])

        for id: JSONValue in [1, "x"] {
            await #expect(
                throws: SyncError.validationFailed(
                    ValidationError(messages: [], attributes: ["id": ["has already been taken"]]),
                    status: 422
                )
            ) { try await store.send(.create, "/notes", body: ["id": id, "title": "Again"]) }
        }
        #expect(try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["title"] } == ["One", "X"])
    }

    @Test func integerIDsAreThoseWithOneTextBelowTwoToThe32() {
        #expect(SQLiteRecordKey.integerID("0") == 0)
        #expect(SQLiteRecordKey.integerID("7") == 7)
        #expect(SQLiteRecordKey.integerID("4294967295") == 4_294_967_295)
        for id in ["", "007", "00", "-1", "+1", "4294967296", "99999999999", "1e3", "7 ", "٣"] {
            #expect(SQLiteRecordKey.integerID(id) == nil)
        }
        #expect(SQLiteRecordKey("7", number: 1) == .integer(4_294_967_303))
        #expect(SQLiteRecordKey("7", number: SQLiteRecordKey.largestNumber + 1) == .text)
    }
}
