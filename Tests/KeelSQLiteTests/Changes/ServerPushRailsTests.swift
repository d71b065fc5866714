import Foundation
import KeelTestServer
import Testing

@testable import Keel

/// Server push over Server-Sent Events from the Rails test app's `ActionController::Live`
/// stream (`GET /tasks/stream`, on a server that takes concurrent requests, as a stream needs):
/// another client's changes arrive, a burst of 1,000 lands once each in order, a server
/// stopped mid-stream ends the stream cleanly and is resumed from `Last-Event-ID` when it is
/// back, without a change missed or applied twice, and heartbeats keep a quiet stream within
/// its read timeout.
@Suite(.serialized)
@MainActor
struct ServerPushRailsTests {
    private func server() async throws -> RailsTestServer {
        try await RailsTestServer.dedicated(to: "server-push", concurrent: true)
    }

    private func source(_ server: RailsTestServer) -> any PushSource {
        StartingAt(
            base: ServerSentEventSource(
                path: "/tasks/stream",
                sync: RESTSync(baseURL: server.baseURL),
                reconnectDelay: .milliseconds(200),
                maximumReconnectDelay: .seconds(1)
            ),
            eventID: "0"
        )
    }

    @Test func anotherClientsChangeAndDeletionArriveByPush() async throws {
        let server = try await server()
        let other = OtherClient.rails(server)
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let pushes = source(server)
        let listening = Task { @MainActor in try await store.listen(RailsTask.self, to: pushes) }
        defer { listening.cancel() }

        let id = try await other.create("Pushed")
        #expect(await eventually { store.peek(RailsTask.self, id: .int(id))?["title"] == "Pushed" })
        let model = try #require(store.peek(RailsTask.self, id: .int(id)))
        var destroyed = false
        let subscription = model.on("destroy") { _ in destroyed = true }
        defer { subscription.cancel() }

        try await other.rename(id, to: "Renamed")
        #expect(await eventually { model["title"] == "Renamed" })
        try await other.delete(id)
        #expect(await eventually { store.peek(RailsTask.self, id: .int(id)) == nil })
        #expect(destroyed)
    }

    @Test func aBurstOfAThousandChangesLandsOnceEachInOrder() async throws {
        let server = try await server()
        let other = OtherClient.rails(server)
        let store = Store(sync: RESTSync(baseURL: server.baseURL))
        let prefix = "burst-\(UUID().uuidString)-"
        var added: [String] = []
        let query = store.query(RailsTask.self)
        let subscription = query.on("add") { event in
            if let title = event.model?["title"]?.stringValue, title.hasPrefix(prefix) { added.append(title) }
        }
        defer { subscription.cancel() }
        let pushes = source(server)
        let listening = Task { @MainActor in try await store.listen(RailsTask.self, to: pushes) }
        defer { listening.cancel() }

        let expected = (0..<1000).map { prefix + String(format: "%04d", $0) }
        try await other.post("bulk", ["titles": .array(expected.map(JSONValue.string))])

        #expect(await eventually(within: .seconds(120)) { added.count >= expected.count })
        #expect(added == expected)
        let titles = store.models(RailsTask.self).compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix(prefix) }
        #expect(titles.count == expected.count)
    }

    @Test func aServerStoppedMidStreamEndsItCleanlyAndIsResumedFromTheLastEventID() async throws {
        try await withTemporaryDirectory { directory in
            let database = directory.appending(path: "server.sqlite3")
            let first = try await RailsTestServer.start(database: database, concurrent: true)
            let store = Store(sync: RESTSync(baseURL: first.baseURL))
            let pushes = source(first)
            let listening = Task { @MainActor in try await store.listen(RailsTask.self, to: pushes) }
            defer { listening.cancel() }

            let before = try await OtherClient.rails(first).create("Before the restart")
            #expect(await eventually { store.peek(RailsTask.self, id: .int(before)) != nil })
            var watched = try openStream(on: first).makeAsyncIterator()
            #expect(try await watched.next()?.first?.event == "created")
            first.stop()
            await first.waitUntilExited()
            // The stream the server had open ends, rather than breaking off.
            while try await watched.next() != nil {}

            let server = try await RailsTestServer.start(port: first.port, database: database, concurrent: true)
            defer { server.stop() }
            let other = OtherClient.rails(server)
            let after = try await other.create("After the restart")
            try await other.rename(before, to: "Renamed after the restart")

            #expect(await eventually { store.peek(RailsTask.self, id: .int(after)) != nil })
            #expect(await eventually { store.peek(RailsTask.self, id: .int(before))?["title"] == "Renamed after the restart" })
            #expect(store.models(RailsTask.self).count == 2)
        }
    }

    @Test func heartbeatsKeepAQuietStreamWithinItsReadTimeout() async throws {
        let server = try await server()
        let other = OtherClient.rails(server)
        let events = try openStream(on: server, after: nil, readTimeout: .seconds(2))
        // Quiet for more than twice the read timeout, with the server's heartbeat each second.
        let (first, id) = try await firstEvent(of: events, afterQuiet: .seconds(5)) {
            try await other.create("After a quiet while")
        }
        #expect(first?.event == "created")
        #expect(first.flatMap { ServerSentEventSource.change(in: $0) }?.id == .int(id))
    }

    /// A bare connection to the stream, after `lastEventID` (`nil`: from the next change on).
    private func openStream(
        on server: RailsTestServer,
        after lastEventID: String? = "0",
        readTimeout: Duration = .seconds(30)
    ) throws -> AsyncThrowingStream<[ServerSentEvent], any Error> {
        var headers = ["Accept": "text/event-stream"]
        headers["Last-Event-ID"] = lastEventID
        let request = try RESTSync(baseURL: server.baseURL).urlRequest(
            for: SyncRequest(method: .read, url: URL(string: "/tasks/stream")!, headers: headers)
        )
        return EventStreamConnection.open(request, lastEventID: lastEventID, readTimeout: readTimeout).1
    }
}
