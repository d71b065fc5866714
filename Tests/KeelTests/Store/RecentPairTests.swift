import Testing

@testable import Keel

/// The two answers an identity map remembers before hashing (`RecentPair`): a lookup finds
/// either, and remembering a third forgets the one used least recently, whichever slot holds it.
struct RecentPairTests {
    @Test func anEmptyPairFindsNothing() {
        var pair = RecentPair<String, Int>()
        #expect(pair.value(for: "/a") == nil)
    }

    @Test func rememberingForgetsTheAnswerUsedLeastRecently() {
        var pair = RecentPair<String, Int>()
        pair.remember(1, for: "/a")
        pair.remember(2, for: "/b")
        // "/a" used last: "/b" goes.
        #expect(pair.value(for: "/a") == 1)
        pair.remember(3, for: "/c")
        #expect(pair.value(for: "/b") == nil)
        #expect(pair.value(for: "/a") == 1)
        // "/a" used last again, then "/c": "/a" goes.
        #expect(pair.value(for: "/c") == 3)
        pair.remember(4, for: "/d")
        #expect(pair.value(for: "/a") == nil)
        #expect(pair.value(for: "/c") == 3)
        #expect(pair.value(for: "/d") == 4)
        // Without a lookup between, the latest remembered stays.
        pair.remember(5, for: "/e")
        #expect(pair.value(for: "/d") == 4)
        #expect(pair.value(for: "/e") == 5)
        #expect(pair.value(for: "/c") == nil)
    }

    @Test func alternatingKeysAreBothFound() {
        var pair = RecentPair<ObjectIdentifier, String?>()
        let article = ObjectIdentifier(Int.self)
        let author = ObjectIdentifier(String.self)
        pair.remember("article", for: article)
        pair.remember(nil, for: author)
        for _ in 0..<3 {
            #expect(pair.value(for: article) == .some("article"))
            #expect(pair.value(for: author) == .some(nil))
        }
    }
}
