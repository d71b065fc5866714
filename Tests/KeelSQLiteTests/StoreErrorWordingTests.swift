import Foundation
import Keel
import KeelSQLite
import Testing

/// Every way a local store refuses an operation through the `Sync` API: the error is the
/// store's, worded as the store's, and still carries the status a REST server would answer.
struct StoreErrorWordingTests {
    /// One refused operation and the refusal it must produce.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: SyncRequest
        let expected: StoreRefusal

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "read of a missing record",
            request: SyncRequest(method: .read, url: url("/notes/9")),
            expected: StoreRefusal(.notFound, path: "notes/9")
        ),
        Case(
            name: "patch of a missing record",
            request: SyncRequest(method: .patch, url: url("/notes/9"), body: ["title": "B"]),
            expected: StoreRefusal(.notFound, path: "notes/9")
        ),
        Case(
            name: "delete of a missing record",
            request: SyncRequest(method: .delete, url: url("/notes/9")),
            expected: StoreRefusal(.notFound, path: "notes/9")
        ),
        Case(
            name: "conditional delete of a missing record",
            request: SyncRequest(method: .delete, url: url("/notes/9"), headers: ["If-Match": "\"1\""]),
            expected: StoreRefusal(.notFound, path: "notes/9", status: 412)
        ),
        Case(
            name: "update with a stale version",
            request: SyncRequest(
                method: .update,
                url: url("/notes/1"),
                body: ["title": "B"],
                headers: ["If-Match": "\"7\""]
            ),
            expected: StoreRefusal(.versionMismatch(current: 1), path: "notes/1")
        ),
        Case(
            name: "create with a body that is not an object",
            request: SyncRequest(method: .create, url: url("/notes"), body: ["a", "b"]),
            expected: StoreRefusal(.notAnObject, path: "notes")
        ),
    ]

    @Test(arguments: [Backend.inMemory, .sqlite, .sqliteInMemory], cases)
    func aRefusalIsTheStoresWithTheStatusAServerWouldAnswer(_ backend: Backend, _ refused: Case) async throws {
        try await backend.withSync { (sync) async throws in
            try await sync.send(.create, "/notes", body: ["title": "A"])
            let error = await #expect(throws: SyncError.self) { try await sync.perform(refused.request) }
            #expect(error == .storeRefused(refused.expected))
            #expect(error?.status == refused.expected.status)
            #expect(error?.isNotFound == (refused.expected.reason == .notFound))
            Self.expectStoreWording(error)
            #expect(try await sync.send(.read, "/notes/1").body == ["title": "A", "id": 1], "nothing changed")
        }
    }

    @Test(arguments: [Backend.inMemory, .sqlite, .sqliteInMemory])
    func aTakenIdIsAValidationErrorOfTheIdInNeutralWords(_ backend: Backend) async throws {
        try await backend.withSync { (sync) async throws in
            try await sync.send(.create, "/notes", body: ["title": "A"])
            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.create, "/notes", body: ["id": 1, "title": "B"])
            }
            #expect(error?.validationError?["id"] == ["has already been taken"])
            #expect(error?.status == 422)
            Self.expectStoreWording(error)
        }
    }

    @Test func aModelFetchOfAMissingRecordSaysWhereItLooked() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "A"])
        let note = Note(["id": 404])
        note.sync = store
        let error = await #expect(throws: SyncError.self) { try await note.fetch() }
        #expect(error?.description == "There is no record notes/404 in the store")
        #expect(error?.isNotFound == true)
    }

    @Test func descriptionsNameTheRecordAndWhatWasRefused() {
        #expect(
            StoreRefusal(.versionMismatch(current: 4), path: "/notes/7").description
                == "The record notes/7 in the store is at version 4, not at the version the change was based on; "
                + "nothing was changed"
        )
        #expect(
            StoreRefusal(.versionMismatch(current: nil), path: "notes/7").description
                == "The record notes/7 in the store is not at the version the change was based on; "
                + "nothing was changed"
        )
        #expect(
            StoreRefusal(.notAnObject, path: "notes").description
                == "The store keeps JSON objects, and the body sent to notes is not one; nothing was changed"
        )
    }

    @Test func aServers404IsNotFoundToo() {
        #expect(SyncError.httpStatus(404, body: nil).isNotFound)
        #expect(!SyncError.httpStatus(412, body: nil).isNotFound)
        #expect(!SyncError.storeRefused(StoreRefusal(.versionMismatch(current: 2), path: "notes/1")).isNotFound)
        #expect(SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/1", status: 412)).isNotFound)
    }

    /// The error's description never speaks of a server or of HTTP.
    private static func expectStoreWording(_ error: SyncError?, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = error.map(String.init(describing:)) ?? ""
        for word in ["server", "HTTP", "answered"] {
            #expect(!text.contains(word), "\(text)", sourceLocation: sourceLocation)
        }
    }
}
