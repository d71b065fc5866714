import Testing

@testable import Keel

/// An id's path segment: an integer's digits without the dot-segment check, any other id
/// checked, and `.` and `..` recognized in every spelling while other segments are answered
/// from their first bytes.
struct RecordSegmentTests {
    @Test(arguments: [0, 7, -1, 10_000, Int.max, Int.min])
    func anIntegerIDIsItsDigits(id: Int) throws {
        #expect(try URLPath.recordSegment(for: .int(id)) == String(id))
    }

    @Test(arguments: [".", "..", "%2e", "%2E", ".%2e", "%2E.", "%2e%2E", "%2E%2E"])
    func dotSegmentsInEverySpellingAreRefused(segment: String) {
        #expect(URLPath.isDotSegment(segment))
        #expect(URLPath.isDotSegment(segment[...]))
    }

    @Test(arguments: ["", "...", "a", "a.", ".a", "%2e%2e%2e", "%2e%2e.", "..%2e", "%2f", "%2E%2", "7", "note 7"])
    func otherSegmentsAreNotDotSegments(segment: String) {
        #expect(!URLPath.isDotSegment(segment))
    }

    @Test func stringAndDoubleIDsAreStillChecked() throws {
        #expect(throws: SyncError.unsafePathSegment("..")) { try URLPath.recordSegment(for: "..") }
        #expect(throws: SyncError.unsafePathSegment("")) { try URLPath.recordSegment(for: "") }
        #expect(try URLPath.recordSegment(for: "a b") == "a%20b")
        #expect(try URLPath.recordSegment(for: 7.0) == "7")
    }

    @Test(arguments: ["", "/", "/notes", "/notes/", "//", "https://api.example.com/v1/notes", "/ünïcode/", "/a?"])
    func aRecordPathIsTheBaseJoinedWithTheSegment(base: String) throws {
        let ids: [JSONValue] = [
            .int(0), .int(7), .int(-1), .int(10_000), .int(Int.max), .int(Int.min), "a b", "x/y", 7.0,
        ]
        for id in ids {
            #expect(try URLPath.recordPath(base, id: id) == URLPath.join(base, try URLPath.recordSegment(for: id)))
        }
        for unsafe: JSONValue in ["", ".", ".."] {
            #expect(throws: SyncError.self) { try URLPath.recordPath(base, id: unsafe) }
        }
    }

    @Test(arguments: [JSONValue.int(-12), .int(0), .int(Int.max), .string("x"), .double(2.0), .double(2.5)])
    func aResourceSegmentOfAnIDIsItsText(id: JSONValue) {
        let expected: String =
            switch id {
            case .int(let int): String(int)
            case .string(let string): string
            case .double(let double): Int(exactly: double).map(String.init) ?? String(double)
            default: id.description
            }
        #expect(ResourcePath.segment(for: id) == expected)
    }
}
