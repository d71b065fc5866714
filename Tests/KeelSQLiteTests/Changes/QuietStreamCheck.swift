import Foundation
import Testing

@testable import Keel

/// What a stream sends first when it stays quiet (but for the server's heartbeats) for
/// `quiet`, after which `write` makes a change: the first event (of the first read), and the
/// id `write` returned.
/// The stream throws when a read timeout shorter than `quiet` went off.
@MainActor
func firstEvent(
    of events: AsyncThrowingStream<[ServerSentEvent], any Error>,
    afterQuiet quiet: Duration,
    then write: @escaping @Sendable () async throws -> Int
) async throws -> (event: ServerSentEvent?, id: Int) {
    let writer = Task {
        try await Task.sleep(for: quiet)
        return try await write()
    }
    var first: ServerSentEvent?
    for try await read in events {
        first = read.first
        break
    }
    return (first, try await writer.value)
}
