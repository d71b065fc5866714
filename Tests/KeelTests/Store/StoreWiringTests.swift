import Foundation
import Keel
import Testing

/// A class without a `urlRoot`, registered under a path.
final class StoreRootlessItem: Model {}

/// The models a store holds save and destroy through its backend, and each keeps its own
/// settings: they share what names the backend until one of them sets something of its own.
struct StoreWiringTests {
    @Test func heldModelsUseTheStoresBackendUntilOneSetsItsOwn() async throws {
        let server = InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"], ["id": 2, "title": "Eggs"]]])
        let store = Store(sync: server)
        let milk = try #require(try await store.find(StoreTodo.self, id: 1))
        let eggs = try #require(try await store.find(StoreTodo.self, id: 2))
        #expect(milk.sync as? InMemorySync === server)
        #expect(eggs.sync as? InMemorySync === server)

        let other = InMemorySync()
        milk.sync = other
        milk.urlRoot = "/elsewhere"
        #expect(milk.sync as? InMemorySync === other)
        #expect(milk.urlRoot == "/elsewhere")
        #expect(eggs.sync as? InMemorySync === server)
        #expect(eggs.urlRoot == "/todos")

        try await eggs.save(["title": "Brown eggs"])
        let stored = try await server.perform(SyncRequest(method: .read, url: try #require(URL(string: "/todos/2"))))
        #expect(stored.body?["title"] == "Brown eggs")
    }

    @Test func aHeldModelWithItsOwnPathGetsTheStoresBackendToo() async throws {
        let server = InMemorySync(records: ["/things": [["id": 1, "name": "Lamp"]]])
        let store = Store(sync: server)
        store.register(StoreRootlessItem.self, path: "/things")
        let lamp = try #require(try await store.find(StoreRootlessItem.self, id: 1))
        #expect(lamp.urlRoot == "/things")
        #expect(lamp.sync as? InMemorySync === server)
        #expect(try lamp.url() == "/things/1")
    }
}
