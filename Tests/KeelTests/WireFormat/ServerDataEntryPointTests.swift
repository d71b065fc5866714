import Keel
import Testing

/// Server data read outside a fetch (the initializer and `set` with `parse: true`, a
/// collection's parsing entry points, an identity map, the format's `decode`) gives exactly
/// what a fetch of the same body gives, in every wire format.
@MainActor
struct ServerDataEntryPointTests {
    private func fetched(_ type: Model.Type, _ body: JSONValue) async throws -> Model {
        let model = type.init()
        model.sync = ScriptedSync(always: SyncResponse(body: body))
        // The URL comes from the call: a model without an id has no URL of its own to fetch.
        try await model.fetch(options: SyncOptions(url: "/records/1"))
        return model
    }

    @Test(arguments: ServerDataDialect.allCases)
    func theInitializerWithParseReadsARecordAsAFetchDoes(_ dialect: ServerDataDialect) async throws {
        let record = dialect.record(id: 1)
        let reference = try await fetched(dialect.modelType, record)
        let model = dialect.modelType.init(try #require(record.objectValue), options: ChangeOptions(parse: true))
        #expect(dialect.graph(model) == dialect.graph(reference))
        #expect(model.id != nil && model.id == reference.id)
    }

    @Test(arguments: ServerDataDialect.allCases)
    func setWithParseReadsARecordAsAFetchDoes(_ dialect: ServerDataDialect) async throws {
        let record = dialect.record(id: 1)
        let reference = try await fetched(dialect.modelType, record)
        let model = dialect.modelType.init()
        var changed: [String] = []
        model.on("change") { _ in changed.append("change") }
        #expect(model.set(try #require(record.objectValue), options: ChangeOptions(parse: true)))
        #expect(dialect.graph(model) == dialect.graph(reference))
        #expect(changed == ["change"])
    }

    @Test(arguments: ServerDataDialect.allCases)
    func anIdentityMapReadsARecordAsAFetchDoesAndFindsItByItsID(_ dialect: ServerDataDialect) async throws {
        let record = try #require(dialect.record(id: 1).objectValue)
        let reference = try await fetched(dialect.modelType, .object(record))
        let map = IdentityMap()
        let parse = ChangeOptions(parse: true)
        let model = map.model(dialect.modelType, collection: "/notes", attributes: record, options: parse)
        #expect(dialect.graph(model) == dialect.graph(reference))
        #expect(map.model(dialect.modelType, collection: "/notes", attributes: record, options: parse) === model)
    }

    @Test(arguments: ServerDataDialect.allCases)
    func decodedAttributesBuildTheFetchedModel(_ dialect: ServerDataDialect) async throws {
        let record = dialect.record(id: 1)
        let reference = try await fetched(dialect.modelType, record)
        let format = dialect.modelType.wireFormat
        let model = dialect.modelType.init(try format.decode(record, for: dialect.modelType))
        #expect(dialect.graph(model) == dialect.graph(reference))
    }

    @Test(arguments: ServerDataDialect.allCases)
    func aCollectionsParsingEntryPointsReadAListAsAFetchDoes(_ dialect: ServerDataDialect) async throws {
        try await dialect.run(ListEntryPoints())
    }

    /// `set(parsing:)`, `reset(parsing:)`, `add`/`set`/`reset`/the initializer with `parse: true`
    /// and `decodeList`, each against a collection fetch of the same body.
    private struct ListEntryPoints: ModelClassCheck {
        func callAsFunction<M: Model>(_ type: M.Type, _ dialect: ServerDataDialect) async throws {
            func fetched(_ body: JSONValue) async throws -> [[Attributes]] {
                let collection = Collection<M>(url: "/notes", sync: ScriptedSync(always: SyncResponse(body: body)))
                try await collection.fetch()
                return collection.map(dialect.graph)
            }
            let list = try await fetched(dialect.list)
            #expect(list.count == 2)
            #expect(try Collection<M>().set(parsing: dialect.list).map(dialect.graph) == list)
            #expect(try Collection<M>().reset(parsing: dialect.list).map(dialect.graph) == list)
            let decoded = try M.wireFormat.decodeList(dialect.list, for: M.self)
            #expect(Collection<M>(decoded).map(dialect.graph) == list)

            let records = try [1, 2].map { try #require(dialect.record(id: $0).objectValue) }
            let array = try await fetched(.array(JSONArray(records.map(JSONValue.object))))
            let parse = UpdateOptions(parse: true)
            #expect(Collection<M>().add(records, options: parse).map(dialect.graph) == array)
            #expect(Collection<M>().set(records, options: parse).map(dialect.graph) == array)
            #expect(Collection<M>().reset(records, options: parse).map(dialect.graph) == array)
            #expect(Collection<M>(records, options: parse).map(dialect.graph) == array)
        }
    }

    @Test func aRailsRecordLosesItsRootAndItsServerNames() {
        let record: Attributes = ["note": ["id": 1, "due_at": "2026-12-01"]]
        let note = ServerDataDialect.Rails.Note(record, options: ChangeOptions(parse: true))
        #expect(note.attributes == ["id": 1, "dueAt": "2026-12-01"])
    }

    @Test func aCollectionReadsWithItsOwnFormatBeforeTheClasss() throws {
        let notes = Collection<ServerDataDialect.Plain.Note>()
        notes.wireFormat = .rails
        try notes.set(parsing: ["notes": [["id": 1, "due_at": "2026-12-01"]]])
        #expect(notes.first?.attributes == ["id": 1, "dueAt": "2026-12-01"])
        notes.first?.set(["note": ["due_at": "2027-01-01"]], options: ChangeOptions(parse: true))
        #expect(notes.first?.attributes == ["id": 1, "dueAt": "2027-01-01"])
    }

    /// A record whose one attribute has the root's name keeps it: the format is applied once,
    /// however the record arrives (a fetch that hands its records to `set(parsing:)` does not
    /// apply it again).
    @Test func theFormatIsAppliedOnceHoweverTheRecordArrives() async throws {
        typealias Note = ServerDataDialect.Rails.Note
        let record: Attributes = ["note": ["note": ["id": 3]]]
        let expected: Attributes = ["note": ["id": 3]]
        let fetchedNote = Note()
        fetchedNote.sync = ScriptedSync(always: SyncResponse(body: .object(record)))
        try await fetchedNote.fetch(options: SyncOptions(url: "/notes/3", parse: true))
        #expect(fetchedNote.attributes == expected)
        let notes = Collection<Note>(url: "/notes", sync: ScriptedSync(always: SyncResponse(body: [.object(record)])))
        try await notes.fetch()
        #expect(notes.first?.attributes == expected)
        #expect(Note(record, options: ChangeOptions(parse: true)).attributes == expected)
        let map = IdentityMap()
        let mapped = map.model(Note.self, collection: "/notes", attributes: record, options: ChangeOptions(parse: true))
        #expect(mapped.attributes == expected)
    }

    @Test func aRecordThatDoesNotFitTheFormatGoesToParseAsItIs() throws {
        typealias Article = ServerDataDialect.Drupal.Article
        let article = Article(["id": 7, "title": "Plain"], options: ChangeOptions(parse: true))
        #expect(article.attributes == ["id": 7, "title": "Plain"])
        #expect(throws: SyncError.self) { try WireFormat.drupal.decode(["title": "Plain"], for: Article.self) }
    }
}
