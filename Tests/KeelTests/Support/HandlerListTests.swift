import Testing

@testable import Keel

@Suite("Handler lists")
struct HandlerListTests {
    private func ids(_ list: HandlerList) -> [Int] {
        var ids: [Int] = []
        list.forEach { ids.append($0.id) }
        return ids
    }

    private func handler(_ id: Int) -> EventHandler {
        EventHandler(id: id, name: "ping", callback: { _ in }, owner: nil, isOnce: false)
    }

    @Test func keepsRegistrationOrderAcrossTheInlineHandler() {
        var list = HandlerList()
        #expect(list.isEmpty)
        for id in 1...4 { list.append(handler(id)) }
        #expect(list.count == 4)
        #expect(ids(list) == [1, 2, 3, 4])
    }

    @Test func removingTheFirstHandlerPromotesTheNext() {
        var list = HandlerList(handler(1))
        list.append(handler(2))
        list.append(handler(3))
        list.removeFirst { $0.id == 1 }
        #expect(ids(list) == [2, 3])
        list.removeFirst { $0.id == 3 }
        #expect(ids(list) == [2])
        list.removeFirst { $0.id == 2 }
        #expect(list.isEmpty)
        #expect(ids(list) == [])
    }

    @Test func removeAllAsksOncePerHandlerInOrder() {
        var list = HandlerList()
        for id in 1...5 { list.append(handler(id)) }
        var asked: [Int] = []
        list.removeAll { handler in
            asked.append(handler.id)
            return handler.id % 2 == 1
        }
        #expect(asked == [1, 2, 3, 4, 5])
        #expect(ids(list) == [2, 4])
    }

    @Test func aCopyIsASnapshot() {
        var list = HandlerList(handler(1))
        list.append(handler(2))
        let snapshot = list
        list.removeAll { _ in true }
        list.append(handler(3))
        #expect(ids(snapshot) == [1, 2])
        #expect(ids(list) == [3])
    }
}
