import Foundation
import KeelSQLite
import KeelTestServer
import Testing

@testable import Keel

/// A push source that starts from a given event id when the store has none yet, so that a
/// test misses no change made while the stream is being opened.
struct StartingAt: PushSource {
    let base: any PushSource
    let eventID: String

    func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
        base.changes(after: lastEventID ?? eventID)
    }

    func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error> {
        base.batches(after: lastEventID ?? eventID)
    }
}

/// Server push over Server-Sent Events from the Django test app's `StreamingHttpResponse`
/// (`/changes/tasks/stream`, under gunicorn's threaded worker): another client's changes
/// arrive, a restarted server is resumed from `Last-Event-ID` without a change missed or
/// applied twice, a burst of 1,000 lands once each in order, and heartbeats keep a quiet
/// stream within its read timeout.
@Suite(.serialized)
@MainActor
struct ServerPushDjangoTests {
    private func server() async throws -> TestServer { try await TestServer.dedicated(to: "server-push") }

    private func source(_ server: TestServer) -> any PushSource {
        StartingAt(
            base: ServerSentEventSource(
                path: "/changes/tasks/stream",
                sync: RESTSync(baseURL: server.baseURL),
                reconnectDelay: .milliseconds(200),
                maximumReconnectDelay: .seconds(1)
            ),
            eventID: "0"
        )
    }

    private func titles(_ store: Store, prefix: String) -> [String] {
        store.models(DjangoTask.self).compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix(prefix) }
    }

    @Test func anotherClientsChangeAndDeletionArriveByPush() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let pushes = source(server)
        let listening = Task { @MainActor in try await store.listen(DjangoTask.self, to: pushes) }
        defer { listening.cancel() }

        let id = try await other.create("Pushed")
        #expect(await eventually { store.peek(DjangoTask.self, id: .int(id))?["title"] == "Pushed" })
        let model = try #require(store.peek(DjangoTask.self, id: .int(id)))
        var destroyed = false
        let subscription = model.on("destroy") { _ in destroyed = true }
        defer { subscription.cancel() }

        try await other.rename(id, to: "Renamed")
        #expect(await eventually { model["title"] == "Renamed" })
        try await other.delete(id)
        #expect(await eventually { store.peek(DjangoTask.self, id: .int(id)) == nil })
        #expect(destroyed)
    }

    @Test func aBurstOfAThousandChangesLandsOnceEachInOrder() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let prefix = "burst-\(UUID().uuidString)-"
        var added: [String] = []
        let query = store.query(DjangoTask.self)
        let subscription = query.on("add") { event in
            if let title = event.model?["title"]?.stringValue, title.hasPrefix(prefix) { added.append(title) }
        }
        defer { subscription.cancel() }
        let pushes = source(server)
        let listening = Task { @MainActor in try await store.listen(DjangoTask.self, to: pushes) }
        defer { listening.cancel() }

        let expected = (0..<1000).map { prefix + String(format: "%04d", $0) }
        try await other.post("bulk", ["titles": .array(expected.map(JSONValue.string))])

        #expect(await eventually(within: .seconds(120)) { added.count >= expected.count })
        #expect(added == expected)
        #expect(titles(store, prefix: prefix).count == expected.count)
    }

    @Test func aRestartedServerIsResumedFromTheLastEventIDMissingNothing() async throws {
        try await withTemporaryDirectory { directory in
            let database = directory.appending(path: "server.sqlite3")
            let first = try await TestServer.start(database: database)
            let store = Store(sync: RESTSync(baseURL: first.baseURL))
            let pushes = source(first)
            let listening = Task { @MainActor in try await store.listen(DjangoTask.self, to: pushes) }
            defer { listening.cancel() }

            let before = try await OtherClient.django(first).create("Before the restart")
            #expect(await eventually { store.peek(DjangoTask.self, id: .int(before)) != nil })
            first.stop()
            await first.waitUntilExited()
            let server = try await TestServer.start(port: first.port, database: database)
            defer { server.stop() }

            let other = OtherClient.django(server)
            let after = try await other.create("After the restart")
            try await other.rename(before, to: "Renamed after the restart")

            #expect(await eventually { store.peek(DjangoTask.self, id: .int(after)) != nil })
            #expect(await eventually { store.peek(DjangoTask.self, id: .int(before))?["title"] == "Renamed after the restart" })
            #expect(store.models(DjangoTask.self).count == 2)
        }
    }

    @Test func thePushCursorIsKeptWithTheLocalCopyAcrossARestart() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "cache.sqlite")
            let first = Store(sync: CachingSync(remote: RESTSync(baseURL: server.baseURL), local: try SQLiteOfflineStore(fileURL: file)))
            let pushes = source(server)
            let listening = Task { @MainActor in try await first.listen(DjangoTask.self, to: pushes) }
            let heard = try await other.create("Heard")
            #expect(await eventually { first.peek(DjangoTask.self, id: .int(heard)) != nil })
            listening.cancel()
            _ = await listening.result

            let missed = try await other.create("While closed")
            let cache = CachingSync(remote: RESTSync(baseURL: server.baseURL), local: try SQLiteOfflineStore(fileURL: file))
            let second = Store(sync: cache)
            var added: [JSONValue] = []
            let query = second.query(DjangoTask.self)
            let subscription = query.on("add") { event in added.append(event.model?.id ?? nil) }
            defer { subscription.cancel() }
            let resumed = Task { @MainActor in
                try await second.listen(
                    DjangoTask.self,
                    to: ServerSentEventSource(path: "/changes/tasks/stream", sync: RESTSync(baseURL: server.baseURL))
                )
            }
            defer { resumed.cancel() }

            #expect(await eventually { second.peek(DjangoTask.self, id: .int(missed)) != nil })
            #expect(!added.contains(.int(heard)))
            #expect(try await cache.local.record("\(missed)", in: "/changes/tasks")?["title"] == "While closed")
        }
    }

    @Test func heartbeatsKeepAQuietStreamWithinItsReadTimeout() async throws {
        let server = try await server()
        let other = OtherClient.django(server)
        let request = try RESTSync(baseURL: server.baseURL).urlRequest(
            for: SyncRequest(method: .read, url: URL(string: "/changes/tasks/stream")!, headers: ["Accept": "text/event-stream"])
        )
        let (_, events) = EventStreamConnection.open(request, lastEventID: nil, readTimeout: .seconds(3))
        // Quiet for more than twice the read timeout, with the server's heartbeat each second.
        let (first, id) = try await firstEvent(of: events, afterQuiet: .seconds(7)) {
            try await other.create("After a quiet while")
        }
        #expect(first?.event == "created")
        #expect(first.flatMap { ServerSentEventSource.change(in: $0) }?.id == .int(id))
    }

    @Test func aStreamTheServerRefusesEndsListeningWithItsStatus() async throws {
        let server = try await server()
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let missing = ServerSentEventSource(path: "/changes/missing/stream", sync: RESTSync(baseURL: server.baseURL))
        await #expect(throws: SyncError.self) { try await store.listen(DjangoTask.self, to: missing) }
        let notAStream = ServerSentEventSource(path: "/changes/tasks/", sync: RESTSync(baseURL: server.baseURL))
        do {
            try await store.listen(DjangoTask.self, to: notAStream)
            Issue.record("listening to a JSON list ended without an error")
        } catch {
            #expect(error.status == 200)
        }
    }
}
