import Testing

@testable import Keel

/// RFC 3986 §5.2 reference resolution, checked against the RFC's own examples (§5.4), which
/// is how the paginator resolves `Link` and `next` URLs against the page that sent them.
struct URLReferenceTests {
    @Test(
        arguments: [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
            ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
        ]
    )
    func normalExamples(reference: String, target: String) {
        #expect(URLReference.resolve(reference, against: "http://a/b/c/d;p?q") == target)
    }

    @Test(
        arguments: [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
        ]
    )
    func abnormalExamples(reference: String, target: String) {
        #expect(URLReference.resolve(reference, against: "http://a/b/c/d;p?q") == target)
    }

    @Test func aBaseWithoutSchemeResolvesAsAPathAbsoluteOne() {
        #expect(URLReference.resolve("?page=2", against: "/notes?page=1") == "/notes?page=2")
        #expect(URLReference.resolve("./more?page=2", against: "/api/notes") == "/api/more?page=2")
        #expect(URLReference.resolve("https://x.example/n", against: "/notes") == "https://x.example/n")
    }
}
