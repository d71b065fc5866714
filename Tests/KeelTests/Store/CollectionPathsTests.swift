import Testing

@testable import Keel

/// The numbers an identity map gives its collection paths (`CollectionPaths`): one per normal
/// form, the two paths numbered last remembered in place, and released numbers given to new
/// paths, never to one of the two remembered.
struct CollectionPathsTests {
    @Test func eachNormalFormHasOneNumberHoweverItIsWritten() {
        var paths = CollectionPaths()
        let notes = paths.number(of: "/notes")
        let people = paths.number(of: "/people")
        #expect(notes != people)
        #expect(paths.number(of: "notes/") == notes)
        #expect(paths.number(of: "/people") == people)
        #expect(paths.name(of: notes) == paths.name(of: paths.number(of: "notes")))
        #expect(paths.count == 2)
    }

    @Test func alternatingPathsKeepTheirNumbers() {
        var paths = CollectionPaths()
        let articles = paths.number(of: "/articles")
        let people = paths.number(of: "/people")
        for _ in 0..<3 {
            #expect(paths.number(of: "/articles") == articles)
            #expect(paths.number(of: "/people") == people)
        }
    }

    @Test func releasingKeepsTheTwoPathsUsedLastAndReusesTheOthersNumbers() {
        var paths = CollectionPaths()
        let a = paths.number(of: "/a")
        let b = paths.number(of: "/b")
        // "/a" used after "/b": numbering "/c" forgets "/b", the one used least recently.
        #expect(paths.number(of: "/a") == a)
        let c = paths.number(of: "/c")
        paths.release(keeping: [])
        #expect(paths.count == 2)
        #expect(paths.name(of: b) == "")
        #expect(paths.number(of: "/a") == a)
        #expect(paths.number(of: "/c") == c)
        // The released number goes to the next new path.
        #expect(paths.number(of: "/d") == b)
        #expect(paths.name(of: b) == "/d")
    }

    @Test func aPathNumberedWithoutALookupBetweenIsTheLatest() {
        var paths = CollectionPaths()
        _ = paths.number(of: "/a")
        let b = paths.number(of: "/b")
        let c = paths.number(of: "/c")
        // "/a" went at "/c"; "/b" and "/c" stay through a release.
        paths.release(keeping: [])
        #expect(paths.count == 2)
        #expect(paths.number(of: "/b") == b)
        #expect(paths.number(of: "/c") == c)
    }
}
