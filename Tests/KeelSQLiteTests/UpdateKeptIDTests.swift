import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// An update reads only the stored record's id attribute and version, in SQLite, when
/// SQLite's reading of the text cannot differ from Keel's; it keeps that id as a read of the
/// whole record would answer it, and refuses a damaged record as before, leaving it stored.
struct UpdateKeptIDTests {
    /// A store whose `/notes/2` holds the text that `sql` makes (an SQL expression).
    private func store(withRecord2 sql: String) async throws -> SQLiteSync {
        let store = try SQLiteSync.inMemory()
        for title in ["A", "B", "C"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        _ = try store.execute("UPDATE records SET json = \(sql) WHERE id = '2'")
        return store
    }

    /// Text that Keel's parser refuses, some of which SQLite's JSON functions accept.
    static let damagedTexts = [
        "'{\"title\": '",
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

    @Test(arguments: [
        ("{\"id\":2,\"title\":\"note 2\",\"tags\":[\"a\"]}", true),
        ("{\"id\":2,\"n\":1e5}", false),
        ("{\"id\":2,\"n\":1.5E5}", false),
        ("{\"id\":2,\"text\":\"e\"}", true),
        ("{\"id\":2,\"n\":\(String(repeating: "9", count: 299))}", true),
        ("{\"id\":2,\"n\":\(String(repeating: "9", count: 300))}", false),
        ("{\"a\":\(String(repeating: "[", count: 510))\(String(repeating: "]", count: 510))}", true),
        ("{\"a\":\(String(repeating: "[", count: 511))\(String(repeating: "]", count: 511))}", false),
        ("{\"id\":2,\"t\":\"a\\\"b\"}", false),
        ("{\"id\":2,\"t\":\"é\"}", false),
        ("{\"id\":2,\"t\":\"a\tb\"}", false),
        ("{\"id\":2,\"id\":3}", false),
        ("{\"id\":2,\"idx\":3,\"i\":\"id\"}", false),
        ("{\"idx\":3,\"xid\":4}", true),
        ("", true),
    ])
    func plainTextIsPrintableASCIIWithoutExponentsDeepNestingOrARepeatedID(_ text: String, isPlain: Bool) {
        var text = text
        let name = Array("id".utf8)
        let answer = text.withUTF8 { bytes in
            name.withUnsafeBufferPointer {
                SQLiteConnection.isPlainObjectText(UnsafeRawBufferPointer(bytes), idAttribute: $0)
            }
        }
        #expect(answer == isPlain)
    }
}
