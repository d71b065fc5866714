import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// An update reads only the stored record's id attribute and version when its text is plain
/// enough to check without parsing it (``PlainRecordText``); it keeps that id as a read of
/// the whole record would answer it, and refuses a damaged record as before, leaving it
/// stored.
struct UpdateKeptIDTests {
    /// A store whose `/notes/2` holds the text that `sql` makes (an SQL expression).
    private func store(withRecord2 sql: String) async throws -> SQLiteSync {
        let store = try SQLiteSync.inMemory()
        for title in ["A", "B", "C"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        _ = try store.execute("UPDATE records SET json = \(sql) WHERE id = '2'")
        return store
    }

    /// Text that Keel's parser refuses, some of which a looser check would accept.
    static let damagedTexts = [
        "'{\"title\": '",
        "'{\"id\":2,\"title\":\"B\",}'",
        "'{\"id\":2,\"n\":01}'",
        "'[1, 2]'",
        "'{\"id\":2,\"n\":1e400}'",
        "'{\"id\":2,\"n\":\(String(repeating: "[", count: 600))\(String(repeating: "]", count: 600))}'",
        "CAST(X'7B226964223A322C2274223A22FF227D' AS TEXT)",
    ]

    @Test(arguments: damagedTexts)
    func anUpdateOfADamagedRecordFailsAsAReadAndKeepsItsText(_ sql: String) async throws {
        let store = try await store(withRecord2: sql)
        let damaged = try #require(try await store.damagedRecords().first)
        let error = await #expect(throws: SyncError.self) {
            try await store.send(.update, "/notes/2", body: ["title": "B again"])
        }
        #expect(error == .storage(SQLiteStoreError.damagedRecord(damaged).description))
        #expect(try await store.damagedRecords() == [damaged])
    }

    @Test(arguments: [
        ("'{\"title\":\"B\",\"id\":2}'", JSONValue.int(2)),
        ("'{\"title\":\"B\"}'", .int(2)),
        ("'{\"title\":\"B\",\"id\":7}'", .int(2)),
        ("'{\"title\":\"B\",\"id\":\"2\"}'", .string("2")),
        ("'{\"id\":2,\"title\":\"B\",\"id\":\"2\"}'", .string("2")),
        ("'{\"title\":\"B\\u00e9\",\"id\":\"2\"}'", .string("2")),
        ("'{\"title\":\"B\", \"id\" : 2}'", .int(2)),
    ])
    func anUpdateKeepsTheIDAReadAnswers(_ sql: String, id: JSONValue) async throws {
        let store = try await store(withRecord2: sql)
        #expect(try await store.send(.read, "/notes/2").body?["id"] == id)
        let response = try await store.send(.update, "/notes/2", body: ["title": "B again", "id": 9])
        #expect(response.status == 200)
        #expect(response.body == ["title": "B again", "id": id])
        #expect(response.headers["etag"] == "\"2\"")
        #expect(try await store.send(.read, "/notes/2").body == ["title": "B again", "id": id])
    }

    @Test func aPatchStillMergesWithTheStoredRecord() async throws {
        let store = try await store(withRecord2: "'{\"title\":\"B\",\"done\":true,\"id\":2}'")
        let response = try await store.send(.patch, "/notes/2", body: ["title": "B again"])
        #expect(response.body == ["title": "B again", "done": true, "id": 2])
    }

    @Test func anUpdateOfAMissingRecordCreatesIt() async throws {
        let store = try await store(withRecord2: "json")
        let response = try await store.send(.update, "/notes/9", body: ["title": "I"])
        #expect(response.status == 201)
        #expect(response.body == ["title": "I", "id": 9])
    }

    @Test(
        arguments: [
            ("{\"id\":2,\"title\":\"note 2\",\"tags\":[\"a\"],\"author\":{\"id\":3}}", 6..<7),
            (" { \"title\" : \"e\" , \"id\" : -2.5 } ", 26..<30),
            ("{\"id\":2,\"id\":null}", 13..<17),
            ("{\"ids\":[],\"xid\":{},\"n\":0,\"t\":true,\"f\":false}", nil),
            ("{\"id\":\"2\"}", 6..<9),
            ("{\"n\":\(String(repeating: "9", count: 299))}", nil),
            ("{\"a\":\(String(repeating: "[", count: 63))\(String(repeating: "]", count: 63))}", nil),
        ] as [(String, Range<Int>?)]
    )
    func plainTextIsAnObjectWithItsIDValueFound(_ text: String, idValue: Range<Int>?) {
        #expect(scan(text) == .object(idValue: idValue))
    }

    @Test(arguments: [
        "", "[1]", "\"id\"", "{\"title\": ", "{\"a\":1,}", "{\"a\":1} x", "{\"a\":01}", "{\"a\":-}", "{\"a\":1.}",
        "{\"a\":1e5}", "{\"a\":1.5E5}", "{\"a\":tru}", "{\"a\":\"b\\\"c\"}", "{\"a\":\"é\"}", "{\"a\":\"a\tb\"}",
        "{\n\"a\":1}", "{\"id\":{\"x\":1}}", "{\"id\":[1]}", "{\"a\":\(String(repeating: "9", count: 300))}",
        "{\"a\":\(String(repeating: "[", count: 64))\(String(repeating: "]", count: 64))}", "{\"a\" 1}", "{1:2}",
        "{\"a\":[1 2]}", "{\"a\":1]", "{\"a\":\"b}",
    ])
    func otherTextIsOutsideThePlainPart(_ text: String) {
        #expect(scan(text) == .outside)
    }

    @Test(arguments: ["0", "7", "42", "999999999999999999", "1234567890123456789", "-7", "7.5", "\"7\"", ""])
    func smallIntegersAreReadAsKeelsParserReadsThem(_ text: String) throws {
        var text = text
        let integer = text.withUTF8 { SQLiteConnection.smallInteger(UnsafeRawBufferPointer($0)) }
        let parsed = try? JSONValue(parsing: text)
        if let integer {
            #expect(parsed == .int(integer))
        } else {
            #expect(text.utf8.count > 18 || parsed?.intValue == nil || text.hasPrefix("-"))
        }
    }

    /// Scans `text` for the id attribute `id`.
    private func scan(_ text: String) -> PlainRecordText.Scan {
        var text = text
        let name = Array("id".utf8)
        return text.withUTF8 { bytes in
            name.withUnsafeBufferPointer { PlainRecordText.scan(UnsafeRawBufferPointer(bytes), idAttribute: $0) }
        }
    }
}
