import Keel
import Testing

/// A model whose per-operation URLs put its id into the path themselves.
private final class ArchivedNote: Model {
    override class var urlRoot: String? { "/notes" }
    override var destroyURL: String? { id.map { "/archive/\($0.stringValue ?? "")" } }
}

/// A RESTSync on `listener` that sends an Authorization header by default.
private func api(_ listener: WireListener) -> RESTSync {
    RESTSync(baseURL: listener.baseURL, headers: ["Authorization": "Bearer secret"], timeout: .seconds(60))
}

/// Whether `error` is ``SyncError/unsafePathSegment(_:)`` for `segment`.
private func isUnsafe(_ error: any Error, _ segment: String) -> Bool {
    error as? SyncError == .unsafePathSegment(segment)
}

// MARK: - Ids that would leave their collection

struct RecordPathSafetyTests {
    @Test(arguments: ["..", ".", ""])
    func destroyOfAnIDThatIsNoRecordSegmentSendsNothing(id: String) async throws {
        let listener = try WireListener { _ in .json("{}") }
        defer { listener.stop() }
        let note = Model(["id": .string(id)])
        note.urlRoot = "/notes"
        note.sync = api(listener)
        await #expect { try await note.destroy() } throws: { isUnsafe($0, id) }
        await #expect { try await note.fetch() } throws: { isUnsafe($0, id) }
        await #expect { try await note.save(["title": "x"]) } throws: { isUnsafe($0, id) }
        #expect(listener.requests.isEmpty)
    }

    @Test func aDotIDInACollectionIsRejectedByURL() throws {
        let notes = Collection<Model>(url: "/notes")
        let note = try #require(notes.add(["id": ".."]))
        #expect { try note.url() } throws: { isUnsafe($0, "..") }
        #expect { try note.requestURL(for: .delete) } throws: { isUnsafe($0, "..") }
    }

    @Test func aRejectedSaveLeavesTheModelAsItWas() async throws {
        let listener = try WireListener { _ in .json("{}") }
        defer { listener.stop() }
        let note = Model(["id": ".", "title": "kept"])
        note.urlRoot = "/notes"
        note.sync = api(listener)
        await #expect { try await note.save(["title": "lost?"]) } throws: { isUnsafe($0, ".") }
        #expect(note["title"] == "kept")
        #expect(listener.requests.isEmpty)
    }

    @Test func aDotIDInAPerOperationURLIsRejectedByRESTSync() async throws {
        let listener = try WireListener { _ in .json("{}") }
        defer { listener.stop() }
        let note = ArchivedNote(["id": ".."])
        note.sync = api(listener)
        await #expect { try await note.destroy() } throws: { isUnsafe($0, "..") }
        #expect(listener.requests.isEmpty)
    }

    @Test(arguments: ["/notes/../admin", "/notes/./7", "/notes/%2e%2E", "/notes/%2E/7", "/notes/.."])
    func dotSegmentsInAnExplicitURLAreRejected(path: String) async throws {
        let listener = try WireListener { _ in .json("{}") }
        defer { listener.stop() }
        await #expect(throws: SyncError.self) {
            try await api(listener).perform(SyncRequest(method: .delete, url: SyncFixture.url(path)))
        }
        #expect(listener.requests.isEmpty)
    }

    @Test(arguments: [
        ("a/b", "/notes/a%2Fb"),
        ("?x", "/notes/%3Fx"),
        ("#x", "/notes/%23x"),
        ("100%", "/notes/100%25"),
        ("%2e%2e", "/notes/%252e%252e"),
        ("...", "/notes/..."),
        ("../x", "/notes/..%2Fx"),
        (".x", "/notes/.x"),
    ])
    func idsWithReservedCharactersReachTheWireAsOneSegment(id: String, target: String) async throws {
        let listener = try WireListener { _ in .json("{}") }
        defer { listener.stop() }
        let note = Model(["id": .string(id)])
        note.urlRoot = "/notes"
        note.sync = api(listener)
        try await note.destroy(wait: true)
        #expect(listener.requests.map(\.target) == [target])
        #expect(listener.requests.map(\.method) == ["DELETE"])
    }

    @Test func unsafePathSegmentSaysWhatIsWrong() {
        let description = SyncError.unsafePathSegment("..").description
        #expect(description.contains("\"..\""))
        #expect(description.contains("nothing was sent"))
    }
}
