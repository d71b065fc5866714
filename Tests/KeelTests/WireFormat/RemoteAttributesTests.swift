import Keel
import Testing

/// `remoteAttributes` is the last record the server sent for a model, exactly as sent, however
/// the model was loaded: a collection fetch, a finder, the parsing entry points, an identity
/// map, in every wire format (NSRails' `remoteAttributes`).
@MainActor
struct RemoteAttributesTests {
    @Test(arguments: ServerDataDialect.allCases)
    func aCollectionFetchGivesEachModelItsRecordAsSent(_ dialect: ServerDataDialect) async throws {
        try await dialect.run(FetchedList())
    }

    private struct FetchedList: ModelClassCheck {
        func callAsFunction<M: Model>(_ type: M.Type, _ dialect: ServerDataDialect) async throws {
            let notes = Collection<M>(url: "/notes", sync: ScriptedSync(always: SyncResponse(body: dialect.list)))
            try await notes.fetch()
            #expect(notes.map(\.remoteAttributes) == dialect.listedRecords)
        }
    }

    @Test(arguments: ServerDataDialect.allCases)
    func aCollectionsParsingEntryPointsGiveEachModelItsRecordAsSent(_ dialect: ServerDataDialect) async throws {
        try await dialect.run(ParsedList())
    }

    private struct ParsedList: ModelClassCheck {
        func callAsFunction<M: Model>(_ type: M.Type, _ dialect: ServerDataDialect) async throws {
            let listed = dialect.listedRecords
            #expect(try Collection<M>().set(parsing: dialect.list).map(\.remoteAttributes) == listed)
            #expect(try Collection<M>().reset(parsing: dialect.list).map(\.remoteAttributes) == listed)

            let records = try [1, 2].map { try #require(dialect.record(id: $0).objectValue) }
            let given = records.map { JSONValue?.some(.object($0)) }
            let parse = UpdateOptions(parse: true)
            #expect(Collection<M>().add(records, options: parse).map(\.remoteAttributes) == given)
            #expect(Collection<M>().add(records[0], options: parse)?.remoteAttributes == given[0])
            #expect(Collection<M>().set(records, options: parse).map(\.remoteAttributes) == given)
            #expect(Collection<M>().reset(records, options: parse).map(\.remoteAttributes) == given)
            #expect(Collection<M>(records, options: parse).map(\.remoteAttributes) == given)
        }
    }

    @Test(arguments: ServerDataDialect.allCases)
    func theInitializerAndSetWithParseKeepTheRecordAsGiven(_ dialect: ServerDataDialect) throws {
        let record = try #require(dialect.record(id: 1).objectValue)
        #expect(dialect.modelType.init(record, options: ChangeOptions(parse: true)).remoteAttributes == .object(record))
        let model = dialect.modelType.init()
        model.set(record, options: ChangeOptions(parse: true))
        #expect(model.remoteAttributes == .object(record))
        model.set(["title": "Local"])
        #expect(model.remoteAttributes == .object(record))
    }

    @Test(arguments: ServerDataDialect.allCases)
    func anIdentityMapKeepsTheRecordAsGivenForNewAndLiveModels(_ dialect: ServerDataDialect) throws {
        let record = try #require(dialect.record(id: 1).objectValue)
        let map = IdentityMap()
        let parse = ChangeOptions(parse: true)
        let model = map.model(dialect.modelType, collection: "/notes", attributes: record, options: parse)
        #expect(model.remoteAttributes == .object(record))

        let other = IdentityMap()
        let decoded = try dialect.modelType.wireFormat.decode(.object(record), for: dialect.modelType)
        let live = other.model(dialect.modelType, collection: "/notes", attributes: decoded)
        #expect(live.remoteAttributes == nil)
        #expect(other.model(dialect.modelType, collection: "/notes", attributes: record, options: parse) === live)
        #expect(live.remoteAttributes == .object(record))
    }

    @Test func anIdentityMapFindKeepsTheResponseBody() async throws {
        typealias Note = ServerDataDialect.Rails.Note
        let body: JSONValue = ["note": ["id": 7, "title": "Milk", "legacy": true]]
        let map = IdentityMap()
        let note = try #require(
            try await map.find(Note.self, id: 7, in: "/notes", from: ScriptedSync(always: SyncResponse(body: body)))
        )
        #expect(note.remoteAttributes == body)
    }

    @Test func allGivesEachModelItsRecordWithKeysTheAppDoesNotMap() async throws {
        let notes = try await RemoteNote.all()
        #expect(notes.map(\.remoteAttributes) == [["id": 1, "legacy_flag": true], ["id": 2, "legacy_flag": false]])
    }

    @Test func aClassThatDoesNotKeepRecordsKeepsOnlyItsOwnFetchesBody() async throws {
        let body: JSONValue = ["plain_rails_notes": [["id": 1, "due_at": "a"]]]
        let notes = Collection<PlainRailsNote>(url: "/notes", sync: ScriptedSync(always: SyncResponse(body: body)))
        try await notes.fetch()
        #expect(notes.first?.remoteAttributes == nil)
        #expect(try Collection<PlainRailsNote>().set(parsing: body).first?.remoteAttributes == nil)
        #expect(PlainRailsNote(["plain_rails_note": ["id": 1]], options: ChangeOptions(parse: true)).remoteAttributes == nil)
        let map = IdentityMap()
        let mapped = map.model(PlainRailsNote.self, collection: "/notes", attributes: ["plain_rails_note": ["id": 2]], options: ChangeOptions(parse: true))
        #expect(mapped.remoteAttributes == nil)

        let single: JSONValue = ["plain_rails_note": ["id": 1, "due_at": "b"]]
        let note = try #require(notes.first)
        note.sync = ScriptedSync(always: SyncResponse(body: single))
        try await note.fetch()
        #expect(note.remoteAttributes == single)
    }

    @Test func aCollectionWhoseParseReordersTheRecordsMatchesThemByID() throws {
        let notes = ReversingNotes()
        try notes.set(parsing: ["notes": [["id": 1, "due_at": "a"], ["id": 2, "due_at": "b"]]])
        #expect(notes.map(\.id) == [2, 1])
        #expect(notes.map(\.remoteAttributes) == [["id": 2, "due_at": "b"], ["id": 1, "due_at": "a"]])
    }
}

/// A Rails note of a class that keeps only its own fetches' bodies (the default).
private final class PlainRailsNote: Model {
    override class var wireFormat: WireFormat { .rails }
}

private let remoteNoteBackend = ScriptedSync(
    always: SyncResponse(body: ["remote_notes": [["id": 1, "legacy_flag": true], ["id": 2, "legacy_flag": false]]])
)

private final class RemoteNote: Model {
    override class var keepsRemoteAttributes: Bool { true }
    override class var urlRoot: String? { "/remote-notes" }
    override class var sync: (any Sync)? { remoteNoteBackend }
    override class var wireFormat: WireFormat { .rails }
}

/// Reads its records in reverse order.
private final class ReversingNotes: Collection<ServerDataDialect.Rails.Note> {
    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        response.arrayValue?.reversed().compactMap(\.objectValue)
    }
}

extension ServerDataDialect {
    /// The records of ``list`` as the server sent them, in order.
    var listedRecords: [JSONValue?] {
        let records: [JSONValue]?
        switch self {
        case .plain, .drupal, .drupal7: records = list.arrayValue
        case .rails: records = list["notes"]?.arrayValue
        case .djangoREST: records = list["results"]?.arrayValue
        case .jsonAPI: records = list["data"]?.arrayValue
        }
        return (records ?? []).map(Optional.some)
    }
}
