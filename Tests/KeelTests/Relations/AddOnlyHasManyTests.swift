import Keel
import Testing

/// A has-many in add-only mode (NSRails' `shouldReplaceCollectionForProperty:` answering no):
/// responses add and merge children but remove none, and saves send only the new ones.
@MainActor
struct AddOnlyHasManyTests {
    final class Message: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Thread: Model {
        static let messages = HasMany<Message>("messages", encoding: .nestedAttributes, mode: .addOnly)
        override class var urlRoot: String? { "/threads" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [messages] }
    }

    private func syncedThread() async throws -> Thread {
        let thread = Thread(["id": 1])
        let messages: JSONValue = [["id": 1, "text": "Hi"], ["id": 2, "text": "Yo"]]
        thread.sync = ScriptedSync(always: SyncResponse(body: ["thread": ["id": 1, "messages": messages]]))
        try await thread.fetch()
        return thread
    }

    @Test func aResponseAddsAndMergesChildrenButRemovesNone() async throws {
        let thread = try await syncedThread()
        let first = try #require(thread[Thread.messages].get(1))
        thread.set(["messages": [["id": 2, "text": "Yo!"], ["id": 3, "text": "Hey"]]])
        #expect(thread[Thread.messages].pluck("id") == [1, 2, 3])
        #expect(thread[Thread.messages].get(1) === first)
        #expect(thread[Thread.messages].get(2)?["text"] == "Yo!")
    }

    @Test func aSaveSendsOnlyTheNewChildren() async throws {
        let thread = try await syncedThread()
        let messages = thread[Thread.messages]
        messages.get(1)?.set(["text": "Edited"])
        messages.remove(try #require(messages.get(2)))
        messages.add(Message(["text": "New"]))
        #expect(
            WireFormat.rails.encode(thread, for: .patch) == ["thread": ["messages_attributes": [["text": "New"]]]]
        )
        #expect(
            WireFormat.rails.encode(thread, for: .update)?["thread"]?["messages_attributes"] == [["text": "New"]]
        )
    }

    @Test func aMarkedChildIsStillSentAsDestroy() async throws {
        let thread = try await syncedThread()
        thread[Thread.messages].get(2)?.markForDestruction()
        #expect(
            WireFormat.rails.encode(thread, for: .patch)
                == ["thread": ["messages_attributes": [["id": 2, "_destroy": true]]]]
        )
    }
}
