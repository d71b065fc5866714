/// Reads a `text/event-stream` as it arrives, by the WHATWG HTML standard's rules: lines end
/// in CRLF, LF or CR; a line starting with `:` is a comment (a heartbeat); `field: value`
/// with one optional space; a blank line dispatches the event; an event without data is not
/// dispatched; an `id` with a NUL is ignored; `retry` takes only digits.
struct EventStreamParser {
    /// The reconnection time the stream asked for, in milliseconds.
    private(set) var retry: Int?
    /// The last event id so far.
    private(set) var lastEventID: String?

    private var pending: [UInt8] = []
    private var skipsLineFeed = false
    private var isFirstLine = true
    private var eventType = ""
    private var data = ""
    private var hasData = false

    init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
    }

    /// Reads more of the stream; returns the events it completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if skipsLineFeed {
                skipsLineFeed = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                skipsLineFeed = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                pending.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        if isFirstLine {
            isFirstLine = false
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
        }
        if line.isEmpty { return dispatch() }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": eventType = String(value)
        case "data":
            data += hasData ? "\n" + value : String(value)
            hasData = true
        case "id" where !value.contains("\u{0}"): lastEventID = String(value)
        case "retry" where !value.isEmpty && value.allSatisfy(\.isASCII) && value.allSatisfy(\.isNumber):
            retry = Int(value)
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(id: lastEventID, event: eventType.isEmpty ? "message" : eventType, data: data)
    }
}
