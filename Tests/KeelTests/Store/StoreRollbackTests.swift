import Keel
import Testing

/// A save of a held model that the server rejects restores the model's last server state,
/// per class and per call.
struct StoreRollbackTests {
    private func loaded() async throws -> (InMemorySync, Store, StoreTodo) {
        let server = InMemorySync(records: ["/todos": [["id": 1, "title": "Milk", "rank": 1]]])
        let store = Store(sync: server)
        let milk = try #require(try await store.find(StoreTodo.self, id: 1))
        return (server, store, milk)
    }

    @Test func aRejectedSaveRestoresTheServerStateWithEventsAndKeepsTheValidationError() async throws {
        let (server, store, milk) = try await loaded()
        let named = store.query(StoreTodo.self, filter: .attribute("title", equals: "Milk"))
        var titles: [String] = []
        milk.on("change:title") { titles.append($0.value?.stringValue ?? "-") }
        server.failNext(with: .validationFailed(["title": ["is taken"]], status: 422))
        await #expect(throws: SyncError.self) { try await milk.save(["title": "Eggs", "rank": 2]) }
        #expect(milk[StoreTodo.title] == "Milk" && milk[StoreTodo.rank] == 1)
        #expect(titles == ["Eggs", "Milk"])
        #expect(milk.validationError?["title"] == ["is taken"])
        #expect(named.count == 1)
        #expect(milk.unsavedChanges == nil)
    }

    @Test func aRejectedSaveThatWaitsAlsoRestoresTheServerState() async throws {
        let (server, store, milk) = try await loaded()
        milk[StoreTodo.title] = "Oat milk"
        server.failNext(with: .validationFailed(["rank": ["is invalid"]], status: 422))
        await #expect(throws: SyncError.self) { try await milk.save(["rank": 2], wait: true) }
        #expect(milk[StoreTodo.title] == "Milk" && milk[StoreTodo.rank] == 1)
        #expect(milk.validationError?["rank"] == ["is invalid"])
        withExtendedLifetime(store) {}
    }

    @Test func anAttributeAddedByARejectedSaveIsRemoved() async throws {
        let (server, store, milk) = try await loaded()
        server.failNext(with: .httpStatus(500, body: nil))
        await #expect(throws: SyncError.self) { try await milk.save(["note": "organic"], patch: true) }
        #expect(!milk.has("note"))
        // The store holds the model only while the app keeps the store.
        withExtendedLifetime(store) {}
    }

    @Test func aCallCanKeepTheRejectedValues() async throws {
        let (server, store, milk) = try await loaded()
        server.failNext(with: .httpStatus(500, body: nil))
        await #expect(throws: SyncError.self) {
            try await milk.save(["title": "Eggs"], options: SyncOptions(rollsBackOnFailure: false))
        }
        #expect(milk[StoreTodo.title] == "Eggs")
        withExtendedLifetime(store) {}
    }

    @Test func aClassCanKeepTheRejectedValues() async throws {
        let server = InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"]]])
        let store = Store(sync: server)
        store.register(StoreTodo.self, rollsBackFailedSaves: false)
        let milk = try #require(try await store.find(StoreTodo.self, id: 1))
        server.failNext(with: .httpStatus(500, body: nil))
        await #expect(throws: SyncError.self) { try await milk.save(["title": "Eggs"]) }
        #expect(milk[StoreTodo.title] == "Eggs")
    }
}
