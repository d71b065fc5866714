import Foundation
import Keel
import Testing

/// `ResourcePath`: a request URL split into collection and id, alike for paths in normal
/// form (split in one pass) and any other path (split segment by segment).
struct ResourcePathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        let path: String
        let parent: String?
        let lastSegment: String?

        var testDescription: String { url }
    }

    static let cases: [Case] = [
        // Normal form.
        Case(url: "/notes", path: "/notes", parent: nil, lastSegment: "notes"),
        Case(url: "/notes/7", path: "/notes/7", parent: "/notes", lastSegment: "7"),
        Case(url: "/users/7/invites", path: "/users/7/invites", parent: "/users/7", lastSegment: "invites"),
        Case(url: "/n", path: "/n", parent: nil, lastSegment: "n"),
        Case(url: "/notes/7?done=true", path: "/notes/7", parent: "/notes", lastSegment: "7"),
        Case(url: "http://example.com/notes/7", path: "/notes/7", parent: "/notes", lastSegment: "7"),
        // Percent-encoding: the last segment is decoded, the others stay encoded.
        Case(url: "/notes/a%2Fb", path: "/notes/a%2Fb", parent: "/notes", lastSegment: "a/b"),
        Case(url: "/users/a%2Fb/invites", path: "/users/a%2Fb/invites", parent: "/users/a%2Fb", lastSegment: "invites"),
        Case(url: "/notes/%E2%9C%93", path: "/notes/%E2%9C%93", parent: "/notes", lastSegment: "✓"),
        Case(url: "/notes/100%25", path: "/notes/100%25", parent: "/notes", lastSegment: "100%"),
        // Other forms: empty segments, trailing slashes, no leading slash, no segment.
        Case(url: "/notes//7/", path: "/notes/7", parent: "/notes", lastSegment: "7"),
        Case(url: "/notes/", path: "/notes", parent: nil, lastSegment: "notes"),
        Case(url: "notes/7", path: "/notes/7", parent: "/notes", lastSegment: "7"),
        Case(url: "/", path: "/", parent: nil, lastSegment: nil),
        Case(url: "?done=true", path: "/", parent: nil, lastSegment: nil),
    ]

    @Test(arguments: cases)
    func splitsThePathIntoCollectionAndID(_ example: Case) throws {
        let resource = ResourcePath(try #require(URL(string: example.url)))
        #expect(resource.path == example.path)
        #expect(resource.parent == example.parent)
        #expect(resource.lastSegment == example.lastSegment)
    }

    @Test func anInvalidPercentSequenceInTheIDIsKeptAsWritten() {
        // `URL(string:)` refuses a stray `%`; a file URL percent-encodes it.
        let resource = ResourcePath(URL(filePath: "/notes/100%"))
        #expect(resource.path == "/notes/100%25")
        #expect(resource.lastSegment == "100%")
    }
}
