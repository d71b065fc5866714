/// Something that tells the app about the server's changes as they happen: Server-Sent
/// Events (``ServerSentEventSource``), an in-process source for tests and playgrounds
/// (``InMemoryPushSource``), or a WebSocket channel (Action Cable, Django Channels) that an
/// app plugs in.
///
/// A ``Store`` applies what a source sends with ``Store/listen(_:to:)``: through the
/// backend's local copy when it keeps one, then to the live models, each record's changes
/// in version order and once.
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
