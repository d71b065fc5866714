import Foundation
import Keel
import KeelTestServer
import Testing

/// Cancelling the calling task cancels the request, throws `SyncError.cancelled` and leaves
/// the model (or collection) as it was.
@MainActor
struct InMemoryCancellationTests {
    /// A store whose requests take far longer than any test: only cancellation ends them.
    private let backend = InMemorySync(
        records: ["/notes": [["id": 1, "title": "server"], ["id": 2, "title": "other"]]],
        latency: .seconds(30)
    )

    private func note(_ attributes: Attributes) -> Model {
        let note = Model(attributes)
        note.urlRoot = "/notes"
        note.sync = backend
        return note
    }

    private func inFlight<T: Sendable>(
        _ operation: @escaping @MainActor () async throws -> T
    ) async -> Task<T, any Error> {
        let before = backend.requests.count
        return await startInFlight(operation) { backend.requests.count > before }
    }

    @Test func cancelledFetchLeavesTheModelAsItWas() async throws {
        let model = note(["id": 1, "title": "local"])
        let log = SyncEventLog()
        log.watch(model, events: "change sync")
        let task = await inFlight { try await model.fetch() }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model.attributes == ["id": 1, "title": "local"])
        #expect(log.entries.isEmpty)
    }

    @Test func cancelledSaveOfANewModelIsRolledBack() async throws {
        let model = note(["title": "draft"])
        let task = await inFlight { try await model.save(["title": "final", "done": true]) }
        #expect(model["title"] == "final")
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model.attributes == ["title": "draft"])
        #expect(model.isNew)
        #expect(backend.records(at: "/notes").count == 2)
    }

    @Test func cancelledSaveOfASavedModelRestoresItsAttributes() async throws {
        let model = note(["id": 1, "title": "server"])
        let log = SyncEventLog()
        log.watch(model, events: "sync")
        let task = await inFlight { try await model.save(["title": "changed"]) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model.attributes == ["id": 1, "title": "server"])
        #expect(backend.records(at: "/notes").first == ["id": 1, "title": "server"])
        #expect(log.entries.isEmpty)
    }

    @Test func cancelledSaveRestoresOnlyTheAttributesItStillHolds() async throws {
        let model = note(["id": 1, "title": "server", "rank": 1])
        let task = await inFlight { try await model.save(["title": "changed", "rank": 2, "done": true]) }
        model["rank"] = 3
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model.attributes == ["id": 1, "title": "server", "rank": 3])
    }

    @Test func cancelledWaitSaveAppliesNothing() async throws {
        let model = note(["id": 1, "title": "server"])
        let log = SyncEventLog()
        log.watch(model, events: "change sync")
        let task = await inFlight { try await model.save(["title": "changed"], wait: true) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model.attributes == ["id": 1, "title": "server"])
        #expect(log.entries.isEmpty)
    }

    @Test func cancelledPatchKeepsTheLocalEditAndChangesNothingOnTheServer() async throws {
        let model = note(["id": 1, "title": "server"])
        model["title"] = "local edit"
        let task = await inFlight { try await model.save(patch: true) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(model["title"] == "local edit")
        #expect(backend.records(at: "/notes").first == ["id": 1, "title": "server"])
    }

    @Test func cancelledDestroyWithWaitKeepsTheModel() async throws {
        let notes = Collection<Model>([["id": 1, "title": "server"]], url: "/notes", sync: backend)
        let model = try #require(notes.get(1))
        let log = SyncEventLog()
        log.watch(model, events: "destroy sync")
        let task = await inFlight { try await model.destroy(wait: true) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(notes.get(1) === model)
        #expect(backend.records(at: "/notes").count == 2)
        #expect(log.entries.isEmpty)
    }

    @Test func cancelledCollectionFetchLeavesTheCollection() async throws {
        let notes = Collection<Model>([["id": 9, "title": "local"]], url: "/notes", sync: backend)
        let log = SyncEventLog()
        log.watch(notes)
        let task = await inFlight { _ = try await notes.fetch(reset: true) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { try await task.value }
        #expect(notes.map(\.id) == [9])
        #expect(!log.entries.contains("reset"))
        #expect(!log.entries.contains("sync"))
    }

    @Test func cancelledCreateWithWaitAddsNothing() async throws {
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let task = await inFlight { _ = try await notes.create(["title": "new"], wait: true) }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { try await task.value }
        #expect(notes.isEmpty)
        #expect(backend.records(at: "/notes").count == 2)
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let model = note(["id": 1, "title": "local"])
        let task = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await model.save(["title": "never"])
        }
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(backend.requests.isEmpty)
        #expect(model["title"] == "local")

        let fetch = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await model.fetch()
        }
        await #expect(throws: SyncError.cancelled) { _ = try await fetch.value }
        #expect(backend.requests.isEmpty)
    }
}

/// Cancellation over HTTP, against the Django server's `/slow` endpoint.
@MainActor
struct RESTSyncCancellationTests {
    private func slowModel(_ attributes: Attributes) async throws -> Model {
        let server = try await TestServer.shared
        let model = Model(attributes)
        model.sync = RESTSync(baseURL: server.baseURL, timeout: .seconds(60))
        return model
    }

    /// Starts `operation` and returns once its `request` event fired and it is suspended in the
    /// transport.
    private func inFlight<T: Sendable>(
        _ model: Model,
        _ operation: @escaping @MainActor () async throws -> T
    ) async -> Task<T, any Error> {
        var requested = false
        let subscription = model.on("request") { _ in requested = true }
        defer { subscription.cancel() }
        return await startInFlight(operation) { requested }
    }

    @Test func cancelledFetchOverHTTP() async throws {
        let model = try await slowModel(["id": 1, "title": "local"])
        let task = await inFlight(model) {
            try await model.fetch(options: SyncOptions(url: "/slow", query: ["seconds": "20"]))
        }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(clock.now - start < .seconds(15), "long before the answer")
        #expect(model.attributes == ["id": 1, "title": "local"])
    }

    @Test func cancelledSaveOverHTTPIsRolledBack() async throws {
        let model = try await slowModel(["title": "draft"])
        let task = await inFlight(model) {
            try await model.save(["title": "final"], options: SyncOptions(url: "/slow", query: ["seconds": "20"]))
        }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        await #expect(throws: SyncError.cancelled) { _ = try await task.value }
        #expect(clock.now - start < .seconds(15), "long before the answer")
        #expect(model.attributes == ["title": "draft"])
    }
}
