import Dispatch
import Foundation
import Keel
import Observation

/// `todos watch`: the list as a live query over the store or the server, printed again
/// whenever it changes, from this process, from another `todos` process on the same store,
/// or (with `--server`) from another client of the server.
extension App {
    /// How often `todos --server URL watch` asks the server for the todos again.
    static let serverWatchInterval = Duration.seconds(2)

    /// Prints the list, then prints it again each time what it shows changes, until the
    /// process gets SIGINT (Ctrl-C) or SIGTERM; then returns normally, so the store closes
    /// and the exit status is 0.
    ///
    /// The query is kept loaded (`LiveQuery.keepLoaded()`): the store asks SQLite every
    /// quarter of a second whether another connection committed (`PRAGMA data_version`) and
    /// reads the todos again only when one did. With a server, the answer also goes stale
    /// after ``serverWatchInterval``, and the query asks the server again: the todos server
    /// offers no stream of changes, so polling is how another client's changes arrive.
    /// While the server cannot be reached, the local copy answers and the polling goes on.
    func watch(_ sync: any Sync, filter: ListFilter, backend: Backend) async throws(TodosError) {
        let store = Store(sync: sync)
        let todos = todosQuery(in: store, backend: backend)
        try await syncing(with: backend) { () async throws(SyncError) in try await todos.load() }
        let renderer = Renderer(todos: TodoList(), terminal: terminal, filter: filter)
        let terminal = self.terminal
        // The query's results and each todo's attributes are Observable: the list prints again
        // when anything it showed changes, once per burst of changes.
        let printer = Task {
            let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            var shown = ""
            var iterator = changes.makeAsyncIterator()
            repeat {
                let text = withObservationTracking {
                    renderer.render(todos.models)
                } onChange: {
                    changed.yield()
                }
                if text != shown { terminal.write(text) }
                shown = text
            } while await iterator.next() != nil
        }
        let keeper = Task { await todos.keepLoaded() }
        let stop = StopSignals { printer.cancel() }
        await printer.value
        stop.cancel()
        keeper.cancel()
        await keeper.value
    }
}

/// Calls a handler once when the process gets SIGINT or SIGTERM, instead of being killed,
/// until cancelled.
private final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops handling the signals.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
