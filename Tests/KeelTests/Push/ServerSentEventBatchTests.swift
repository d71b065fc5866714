import Foundation
import Keel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ServerSentEventSource` hands over the changes of every event parsed from one read from
/// the connection as one batch, against a listener on 127.0.0.1 that writes three events
/// in one write, then heartbeats until the client leaves.
struct ServerSentEventBatchTests {
    @Test func theEventsOfOneReadArriveAsOneBatch() async throws {
        let events = (1...3).map { #"id: \#($0)"# + "\nevent: updated\n" + #"data: {"id": \#($0), "title": "T\#($0)"}"# + "\n\n" }
        let listener = try StreamingListener { writer in
            guard writer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + events.joined()) else { return }
            while writer.write(": heartbeat\n\n") { usleep(50_000) }
        }
        defer { listener.stop() }
        let source = ServerSentEventSource(path: "/stream", sync: RESTSync(baseURL: listener.baseURL), versionAttribute: nil)
        var batches = source.batches(after: nil).makeAsyncIterator()
        let first = try await batches.next()
        #expect(first?.map(\.eventID) == ["1", "2", "3"])
        #expect(first?.map(\.change.id) == [.int(1), .int(2), .int(3)])
        #expect(first?.first?.change.attributes?["title"] == "T1")
    }
}
