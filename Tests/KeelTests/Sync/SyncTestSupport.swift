import Foundation
import Keel
import KeelTestServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Sync`` double that records every request and answers through a closure, as Backbone's
/// tests replace `model.sync` with a stub that calls `options.success` or `options.error`.
///
/// ```swift
/// let backend = ScriptedSync { _ in SyncResponse(body: ["id": 7, "b": 2]) }
/// ```
final class ScriptedSync: Sync {
    typealias Responder = @Sendable (SyncRequest) throws(SyncError) -> SyncResponse

    private let recorded = Lock<[SyncRequest]>([])
    private let responder: Responder

    init(_ responder: @escaping Responder = { _ in SyncResponse(status: 200) }) {
        self.responder = responder
    }

    /// Answers every request with the same response.
    convenience init(always response: SyncResponse) {
        self.init { _ in response }
    }

    /// Fails every request with the same error.
    convenience init(failing error: SyncError) {
        self.init { _ throws(SyncError) in throw error }
    }

    /// Every request performed so far, in order.
    var requests: [SyncRequest] { recorded.withLock { $0 } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        recorded.withLock { $0.append(request) }
        return try responder(request)
    }
}

/// Records the names of the events that emitters fire, in order, optionally with a label per
/// emitter (`"collection:add"`) and notes from the test (`"onSuccess"`).
final class SyncEventLog {
    private(set) var entries: [String] = []
    private(set) var events: [Event] = []

    /// Records the events of `emitter` (all of them by default).
    func watch(_ emitter: EventEmitter, label: String? = nil, events names: String = "all") {
        emitter.on(names) { [unowned self] event in
            self.entries.append(label.map { "\($0):\(event.name)" } ?? event.name)
            self.events.append(event)
        }
    }

    /// Records a marker, such as a handler call, between the events.
    func note(_ marker: String) {
        entries.append(marker)
    }

    /// The recorded events with this name.
    func events(named name: String) -> [Event] {
        events.filter { $0.name == name }
    }

    /// How many recorded events have this name.
    func count(_ name: String) -> Int {
        events(named: name).count
    }
}

/// Helpers for building URLs and requests in sync tests.
enum SyncFixture {
    /// `https://example.test`, the base URL of RESTSync request tests.
    static let base = url("https://example.test")

    /// A URL from a literal that is known to be valid.
    static func url(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
        return url
    }

    /// The request URL as text, with percent-encoding kept.
    static func text(_ url: URL?) -> String {
        url?.absoluteString ?? "<nil>"
    }

    /// Percent-encodes text as one path segment, keeping only RFC 3986's unreserved characters.
    static func segment(_ text: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        )
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// A string unique to this test run, for records on the shared Django server.
    static func unique(_ prefix: String = "keel") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}

/// Backbone's model.js fixture: "The Tempest" in a collection whose url is `/collection`.
///
/// Models refer to their collection weakly: keep the returned collection alive for as long
/// as the model should be in it.
func makeTempestFixture(sync: any Sync) -> (Model, Collection<Model>) {
    let collection = Collection<Model>(url: "/collection", sync: sync)
    let doc = Model([
        "id": "1-the-tempest",
        "title": "The Tempest",
        "author": "Bill Shakespeare",
        "length": 123,
    ])
    collection.add(doc)
    return (doc, collection)
}

/// Starts `operation` in a task on the main actor and returns once `isStarted` says it is in
/// flight (for example, once the backend recorded its request), yielding meanwhile.
@MainActor
func startInFlight<T: Sendable>(
    _ operation: @escaping @MainActor () async throws -> T,
    until isStarted: @escaping @MainActor () -> Bool
) async -> Task<T, any Error> {
    let task = Task { @MainActor in try await operation() }
    while !isStarted() {
        await Task.yield()
    }
    return task
}

/// A TCP port on 127.0.0.1 that refuses connections for as long as the value lives: its
/// socket stays bound without listening, so no listener of a test running alongside can be
/// given the same port (as it could once a bound socket was closed).
///
/// ```swift
/// let refused = try RefusedPort()
/// let api = RESTSync(baseURL: URL(string: "http://127.0.0.1:\(refused.port)"))
/// ```
final class RefusedPort: Sendable {
    private let socket: LoopbackSocket

    init() throws {
        socket = try LoopbackSocket()
    }

    var port: Int { socket.port }
}

/// A TCP socket bound to a free port of 127.0.0.1; the caller closes it.
func boundLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
    let socket = try LoopbackSocket()
    return (socket.takeDescriptor(), socket.port)
}

/// A failure in a test's own set-up.
struct SyncTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Holds every caller of ``wait()`` until the test calls ``open()``, then lets the waiting
/// callers and every later one through; counts the callers.
final class Latch: Sendable {
    private struct State {
        var arrived = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var opened = false
    }

    private let state = Lock(State())

    /// How many callers have called ``wait()``.
    var arrived: Int { state.withLock { $0.arrived } }

    /// How many callers are waiting now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Lets every waiting caller, and every later one, through.
    func open() {
        let waiting = state.withLock { state in
            state.opened = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once the latch is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let opened = state.withLock { state in
                state.arrived += 1
                if !state.opened { state.waiting.append(continuation) }
                return state.opened
            }
            if opened { continuation.resume() }
        }
    }
}

/// A ``Sync`` that holds every request until the test calls ``release()``, then passes it to
/// an ``InMemorySync``: a request stays in flight exactly as long as the test needs, without
/// timing assumptions.
final class GatedSync: Sync {
    private let latch = Latch()
    let store: InMemorySync

    init(_ store: InMemorySync = InMemorySync()) {
        self.store = store
    }

    /// How many requests are waiting for ``release()``.
    var waitingCount: Int { latch.waitingCount }

    /// Lets every waiting request, and every later one, through.
    func release() { latch.open() }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        await latch.wait()
        return try await store.perform(request)
    }
}

/// An ``HTTPTransport`` that sends through `URLSession` and keeps the raw bytes of every
/// response, so tests can read a server's answer with Foundation's parser.
final class CapturingTransport: HTTPTransport {
    private let session = URLSession(configuration: .ephemeral)
    private let bodies = Lock<[Data]>([])

    /// The raw body of the latest response.
    var lastBody: Data? { bodies.withLock { $0.last } }

    func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let (data, response) = try await session.data(for: request)
        bodies.withLock { $0.append(data) }
        return (data, response)
    }
}
