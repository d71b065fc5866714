/// One event of a `text/event-stream`, as the WHATWG HTML standard's parsing rules
/// assemble it from its `id:`, `event:`, `data:` and `retry:` fields.
///
/// ```swift
/// let event = ServerSentEvent(id: "42", event: "updated", data: #"{"id": 7, "title": "Milk"}"#)
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The last event id after this event (the stream's `Last-Event-ID`), or `nil`.
    public var id: String?
    /// The event's type: its `event:` field, `message` when it had none.
    public var event: String
    /// Its `data:` lines, joined with line feeds.
    public var data: String

    /// Describes an event.
    ///
    /// ```swift
    /// let ping = ServerSentEvent(id: nil, event: "message", data: "ping")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The last event id.
    ///   - event: The type.
    ///   - data: The data.
    public init(id: String?, event: String = "message", data: String) {
        self.id = id
        self.event = event
        self.data = data
    }
}
