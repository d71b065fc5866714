import Testing

@testable import Keel

/// The `text/event-stream` parser follows the WHATWG rules, whatever the chunking.
struct EventStreamParserTests {
    @Test func readsFieldsCommentsAndBlankLineDispatch() {
        var parser = EventStreamParser()
        let events = parser.feed(Array(": heartbeat\nretry: 250\nid: 7\nevent: updated\ndata: {\"id\": 1}\n\n".utf8))
        #expect(events == [ServerSentEvent(id: "7", event: "updated", data: "{\"id\": 1}")])
        #expect(parser.retry == 250)
    }

    @Test func joinsDataLinesAndAcceptsEveryLineEnding() {
        var parser = EventStreamParser()
        let events = parser.feed(Array("\u{FEFF}data: a\r\ndata:b\rdata\n\r\n".utf8))
        #expect(events == [ServerSentEvent(id: nil, data: "a\nb\n")])
    }

    @Test func chunksSplitAnywhereGiveTheSameEvents() {
        let stream = Array("id: 1\r\nevent: created\r\ndata: x\r\n\r\n: ping\r\nid: 2\r\ndata: y\r\n\r\n".utf8)
        var whole = EventStreamParser()
        let expected = whole.feed(stream)
        for split in 0...stream.count {
            var parser = EventStreamParser()
            let events = parser.feed(stream[..<split]) + parser.feed(stream[split...])
            #expect(events == expected, "split at \(split)")
        }
        #expect(expected.map(\.id) == ["1", "2"])
    }

    @Test func anEventWithoutDataIsNotDispatchedAndKeepsItsID() {
        var parser = EventStreamParser(lastEventID: "3")
        #expect(parser.feed(Array("id: 4\nevent: updated\n\ndata: z\n\n".utf8)) == [ServerSentEvent(id: "4", data: "z")])
        #expect(parser.lastEventID == "4")
    }

    @Test func anIDWithANulAndARetryWithoutDigitsAreIgnored() {
        var parser = EventStreamParser()
        _ = parser.feed(Array("id: a\u{0}b\nretry: 1s\ndata: q\n\n".utf8))
        #expect(parser.lastEventID == nil)
        #expect(parser.retry == nil)
    }
}
