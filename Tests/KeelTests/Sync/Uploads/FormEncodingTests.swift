import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URL-encoded bodies and the bracket and dotted notations for nested values.
struct FormEncodingTests {
    @Test func urlEncodingFollowsTheWHATWGFormSerializer() {
        let encoded = RequestBody.urlEncoded([("a b", "ü&=+*-._~!/"), ("empty", ""), ("名", "\r\n")])
        #expect(encoded == "a+b=%C3%BC%26%3D%2B*-._%7E%21%2F&empty=&%E5%90%8D=%0D%0A")
    }

    @Test func aFormURLEncodedBodyIsSentWithItsContentType() async throws {
        let transport = RecordingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        var request = SyncRequest(method: .create, url: URL(string: "/search")!, body: ["ignored": true])
        request.requestBody = .formURLEncoded([("q", "dune & more"), ("page", "2")])
        _ = try await api.perform(request)
        let sent = try #require(transport.lastRequest)
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.recordedBodyText == "q=dune+%26+more&page=2")
    }

    @Test func aTunnelledFormCarriesTheMethodInAField() async throws {
        let transport = RecordingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, emulateHTTP: true, transport: transport)
        var request = SyncRequest(method: .patch, url: URL(string: "/notes/1")!)
        request.requestBody = .formURLEncoded([("note[title]", "Hi")])
        _ = try await api.perform(request)
        let sent = try #require(transport.lastRequest)
        #expect(sent.httpMethod == "POST")
        #expect(sent.recordedBodyText == "note%5Btitle%5D=Hi&_method=PATCH")
    }

    @Test func aJSONRequestBodyReplacesTheRecordsBody() async throws {
        let transport = RecordingTransport()
        let api = RESTSync(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        var request = SyncRequest(method: .update, url: URL(string: "/notes/1")!, body: ["title": "Record"])
        request.requestBody = .json(["custom": [1, 2]])
        _ = try await api.perform(request)
        #expect(transport.lastRequest?.recordedJSON == ["custom": [1, 2]])
    }

    @Test func bracketNotationNamesNestedValuesAsRackAndJQueryDo() {
        let record: JSONValue = [
            "user": [
                "name": "Ann", "admin": true, "age": 41, "score": 1.5, "bio": nil,
                "tags": ["a", "b"], "address": ["city": "Oslo"], "links": [["title": "Home", "url": "/"]],
                "none": [], "nothing": [:],
            ]
        ]
        let fields = FormNotation.brackets.fields(for: record)
        #expect(
            fields.map(\.name) == [
                "user[name]", "user[admin]", "user[age]", "user[score]", "user[bio]", "user[tags][]", "user[tags][]",
                "user[address][city]", "user[links][0][title]", "user[links][0][url]",
            ]
        )
        #expect(fields.map(\.value) == ["Ann", "true", "41", "1.5", "", "a", "b", "Oslo", "Home", "/"])
        #expect(FormNotation.brackets.name(["user", "avatar"]) == "user[avatar]")
    }

    @Test func dottedNotationNamesNestedValuesAsDjangoRESTFrameworkParsesThem() {
        let record: JSONValue = [
            "title": "T", "tags": ["a", "b"], "address": ["city": "Oslo", "geo": ["lat": 59.9]],
            "items": [["name": "x", "sizes": [1, 2]]],
        ]
        let fields = FormNotation.dotted.fields(for: record)
        #expect(
            fields.map(\.name) == [
                "title", "tags[0]", "tags[1]", "address.city", "address.geo.lat", "items[0]name", "items[0]sizes[0]",
                "items[0]sizes[1]",
            ]
        )
        #expect(FormNotation.dotted.name(["profile", "avatar"]) == "profile.avatar")
    }
}
