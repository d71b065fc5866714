import Foundation
import Keel
import Testing

/// `WireFormat.encode` gives the body a save sends and `decode` reads what a fetch reads, so
/// attributes survive a round trip in every format.
@MainActor
struct WireFormatCodingTests {
    /// Attributes of the dialect's class that travel both ways (no read-only ones).
    private func travelling(_ dialect: ServerDataDialect) -> Attributes {
        switch dialect {
        case .plain: return ["id": 1, "title": "Milk", "dueAt": "2026-12-01"]
        case .rails, .djangoREST: return ["title": "Milk", "dueAt": "2026-12-01"]
        case .drupal: return ["type": "article", "title": "Hello", "fieldTags": 3]
        case .drupal7: return ["type": "article", "title": "Hi", "body": "Text"]
        case .jsonAPI: return ["id": 1, "title": "Milk", "dueAt": "2026-12-01"]
        }
    }

    @Test(arguments: ServerDataDialect.allCases)
    func attributesSurviveEncodeThenDecode(_ dialect: ServerDataDialect) throws {
        let type = dialect.modelType
        let attributes = travelling(dialect)
        let body = type.wireFormat.encode(attributes, for: type)
        #expect(try type.wireFormat.decode(body, for: type) == attributes)
    }

    @Test(arguments: ServerDataDialect.allCases)
    func aFetchedRecordSurvivesDecodeThenEncodeThenDecode(_ dialect: ServerDataDialect) throws {
        let type = dialect.modelType
        let format = type.wireFormat
        let model = type.init(try format.decode(dialect.record(id: 1), for: type))
        let body = try #require(format.encode(model, for: .update))
        // Relations travel as their encoding declares, which the relation tests cover.
        let sent = model.attributes.filter { $0.key != "comments" && format.roles[$0.key] != .readOnly }
        let again = try format.decode(body, for: type).filter { $0.key != "comments" }
        #expect(again == sent)
    }

    @Test func encodingAModelGivesTheBodyOfEachMethod() throws {
        let note = ServerDataDialect.Rails.Note(["id": 4, "title": "Milk", "dueAt": "2026-12-01"])
        note.sync = ScriptedSync()
        note["title"] = "Oat milk"
        #expect(WireFormat.rails.encode(note, for: .read) == nil)
        #expect(WireFormat.rails.encode(note, for: .delete) == nil)
        #expect(WireFormat.rails.encode(note, for: .update) == ["note": ["title": "Oat milk", "due_at": "2026-12-01"]])
        #expect(WireFormat.rails.encode(note, for: .create) == WireFormat.rails.encode(note, for: .update))
        #expect(WireFormat.djangoREST.encode(note, for: .update) == ["title": "Oat milk", "due_at": "2026-12-01"])
    }

    @Test func aPatchBodyCarriesTheUnsavedChangesAndTheAlwaysSentAttributes() async throws {
        typealias Article = ServerDataDialect.Drupal.Article
        let article = Article()
        article.sync = ScriptedSync(always: SyncResponse(body: ServerDataDialect.drupal.record(id: 7)))
        try await article.fetch(options: SyncOptions(url: "/node/7"))
        article["title"] = "Bye"
        #expect(
            WireFormat.drupal.encode(article, for: .patch) == [
                "type": [["target_id": "article"]], "title": [["value": "Bye"]],
            ]
        )
    }

    @Test func decodingReportsWhereABodyDoesNotFit() {
        var format = WireFormat.rails
        format.root.responses = .required
        typealias Note = ServerDataDialect.Rails.Note
        #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "note",
                reason: #"the record is not under its root key "note""#
            )
        ) {
            try format.decode(["id": 1], for: Note.self)
        }
        #expect(throws: SyncError.self) { try WireFormat.rails.decode([1, 2], for: Note.self) }
        #expect(throws: SyncError.self) { try WireFormat.rails.decodeList(["id": 1], for: Note.self) }
        #expect(throws: SyncError.self) { try WireFormat.plain.decodeList([1], for: Note.self) }
        #expect(throws: SyncError.self) { try WireFormat.drupal.decode(["title": "x"], for: Note.self) }
    }
}
