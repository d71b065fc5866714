/// Something that tells the app about the server's changes as they happen: Server-Sent
/// Events (``ServerSentEventSource``), an in-process source for tests and playgrounds
/// (``InMemoryPushSource``), or a WebSocket channel (Action Cable, Django Channels) that an
/// app plugs in.
///
/// A ``Store`` applies what a source sends with ``Store/listen(_:to:)``: through the
/// backend's local copy when it keeps one, then to the live models, each record's changes
/// in version order and once.
///
/// A source hands its changes over one by one (``changes(after:)``, the one requirement
/// without a default) or in batches (``batches(after:)``): the changes that arrived
/// together, such as every event of one read from a connection. `listen` reads batches and
/// applies each in one go (one transaction of the local copy, then the live models), so a
/// burst costs one resumption of the listening task per batch rather than per change. The
/// default ``batches(after:)`` makes a batch of each change; a transport that receives
/// several changes at once implements it too.
///
/// ### Implementation requirements
///
/// - Start after `lastEventID` when it is not `nil` (the id of the last change the app
///   applied, kept with the local copy), so nothing is missed across a reconnection or a
///   restart; the server may repeat changes, never skip them.
/// - Give each change the id it can be resumed after, if the transport has one.
/// - Reconnect by yourself after a dropped connection, with backoff; end the stream with an
///   error only when going on cannot help (the server refuses the request), and end it
///   when the consuming task is cancelled.
/// - When several changes arrive at once, implement ``batches(after:)`` and hand them over
///   together (never an empty batch), and answer ``changes(after:)`` with
///   ``changes(in:)``.
///
/// ```swift
/// struct ChannelSource: PushSource {
///     let channel: MyCableChannel
///     func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
///         AsyncThrowingStream { continuation in
///             channel.subscribe(after: lastEventID) { message in
///                 continuation.yield(PushedChange(RemoteChange(.updated, id: message.id, attributes: message.record), eventID: message.sequence))
///             }
///         }
///     }
/// }
/// ```
public protocol PushSource: Sendable {
    /// The changes from `lastEventID` on, as they arrive, until the consuming task is
    /// cancelled.
    ///
    /// ```swift
    /// for try await pushed in source.changes(after: nil) { print(pushed.change.kind, pushed.change.id) }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last change applied, or `nil` to start with
    ///   the next change.
    /// - Returns: The changes; the stream throws when the source gives up.
    func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error>

    /// The changes from `lastEventID` on, in batches as they arrive, until the consuming
    /// task is cancelled: each batch holds the changes that arrived together, oldest first,
    /// and is never empty.
    ///
    /// ``Store/listen(_:to:)`` reads this. The same requirements apply as for
    /// ``changes(after:)``, and the batches hold the same changes in the same order.
    ///
    /// ```swift
    /// for try await batch in source.batches(after: nil) { print(batch.count, "changes together") }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last change applied, or `nil` to start with
    ///   the next change.
    /// - Returns: The batches; the stream throws when the source gives up.
    func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error>
}

extension PushSource {
    /// Each change of ``changes(after:)`` as a batch of its own, for a source that receives
    /// its changes one at a time.
    ///
    /// ```swift
    /// for try await batch in source.batches(after: "41") { print(batch[0].change.id) }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last change applied, or `nil`.
    /// - Returns: One batch per change; the stream throws when ``changes(after:)``'s does.
    public func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error> {
        let single = changes(after: lastEventID)
        return AsyncThrowingStream { continuation in
            let forwarding = Task {
                do {
                    for try await change in single { continuation.yield([change]) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    /// The changes of a stream of batches one by one, in order: how a source that
    /// implements ``batches(after:)`` answers ``changes(after:)``.
    ///
    /// ```swift
    /// func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
    ///     Self.changes(in: batches(after: lastEventID))
    /// }
    /// ```
    ///
    /// - Parameter batches: The batches.
    /// - Returns: Their changes; the stream throws when `batches` throws.
    public static func changes(
        in batches: AsyncThrowingStream<[PushedChange], any Error>
    ) -> AsyncThrowingStream<PushedChange, any Error> {
        AsyncThrowingStream { continuation in
            let forwarding = Task {
                do {
                    for try await batch in batches {
                        for change in batch { continuation.yield(change) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }
}

/// One change a ``PushSource`` sent, with the id a reconnection resumes after.
///
/// ```swift
/// let pushed = PushedChange(RemoteChange(.deleted, id: 7), eventID: "42")
/// ```
public struct PushedChange: Sendable, Hashable {
    /// The change.
    public var change: RemoteChange
    /// The id to resume after (Server-Sent Events' `id:`), or `nil`.
    public var eventID: String?

    /// Describes a pushed change.
    ///
    /// ```swift
    /// let pushed = PushedChange(RemoteChange(.updated, id: 7), eventID: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - change: The change.
    ///   - eventID: The id to resume after.
    public init(_ change: RemoteChange, eventID: String?) {
        self.change = change
        self.eventID = eventID
    }
}
