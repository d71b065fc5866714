import Foundation
import Testing

/// The test server's stock Django REST framework resource (`/drf/`, a `ModelViewSet` on a
/// `DefaultRouter`), spoken to with plain `URLSession`: what Keel's DRF wire format will meet.
struct DRFServerTests {
    /// Creates an article and returns its JSON.
    private func create(_ client: DialectClient, _ json: String) async throws -> [String: Any] {
        let reply = try await client.send("POST", "drf/articles/", json: json)
        try #require(reply.status == 201, "\(reply.text)")
        return reply.object
    }

    @Test func theRouterServesEveryVerbOnSlashTerminatedPaths() async throws {
        let client = try await DialectClient()
        let created = try await create(client, #"{"title": "Routes", "body": "b"}"#)
        let id = try #require(created["id"] as? Int)

        let read = try await client.send("GET", "drf/articles/\(id)/")
        #expect(read.status == 200)
        #expect(read.object["title"] as? String == "Routes")
        let list = try await client.send("GET", "drf/articles/")
        #expect(list.status == 200)
        #expect(list.array.contains { ($0 as? [String: Any])?["id"] as? Int == id })

        let put = try await client.send("PUT", "drf/articles/\(id)/", json: #"{"title": "Put"}"#)
        #expect(put.status == 200)
        #expect(put.object["title"] as? String == "Put")
        #expect(put.object["body"] as? String == "b")  // DRF: a PUT leaves omitted optional fields alone
        let patch = try await client.send("PATCH", "drf/articles/\(id)/", json: #"{"body": "patched"}"#)
        #expect(patch.status == 200)
        #expect(patch.object["title"] as? String == "Put")
        #expect(patch.object["body"] as? String == "patched")

        let delete = try await client.send("DELETE", "drf/articles/\(id)/")
        #expect(delete.status == 204)
        #expect(delete.body.isEmpty)
        let gone = try await client.send("GET", "drf/articles/\(id)/")
        #expect(gone.status == 404)
        #expect(gone.text == #"{"detail":"No Article matches the given query."}"#)
    }

    @Test(arguments: ["GET", "POST", "PATCH", "DELETE"])
    func aPathWithoutTheSlashIsRedirectedToIt(method: String) async throws {
        let client = try await DialectClient()
        let created = try await create(client, #"{"title": "Slashless"}"#)
        let id = try #require(created["id"] as? Int)

        let collection = try await client.send(method, "drf/articles", json: method == "GET" ? nil : "{}")
        #expect(collection.status == 301)
        #expect(collection.headers["location"] == "/drf/articles/")
        let member = try await client.send(method, "drf/articles/\(id)", json: method == "GET" ? nil : "{}")
        #expect(member.status == 301)
        #expect(member.headers["location"] == "/drf/articles/\(id)/")
        let unchanged = try await client.send("GET", "drf/articles/\(id)/")
        #expect(unchanged.object["title"] as? String == "Slashless")
    }

    @Test func datetimesRoundTripWithMicrosecondsInUTC() async throws {
        let client = try await DialectClient()
        let created = try await create(
            client,
            #"{"title": "Times", "published_at": "2026-11-23T21:57:13.123456Z"}"#
        )
        #expect(created["published_at"] as? String == "2026-11-23T21:57:13.123456Z")
        let stamp = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/#
        let createdAt = try #require(created["created_at"] as? String)
        let updatedAt = try #require(created["updated_at"] as? String)
        #expect(createdAt.wholeMatch(of: stamp) != nil)
        #expect(updatedAt.wholeMatch(of: stamp) != nil)
        let id = try #require(created["id"] as? Int)

        let offset = try await client.send(
            "PATCH",
            "drf/articles/\(id)/",
            json: #"{"published_at": "2026-11-23T21:57:13.654321+02:00"}"#
        )
        #expect(offset.object["published_at"] as? String == "2026-11-23T19:57:13.654321Z")
        #expect(offset.object["created_at"] as? String == createdAt)
        #expect(offset.object["updated_at"] as? String != updatedAt)

        let whole = try await client.send(
            "PATCH",
            "drf/articles/\(id)/",
            json: #"{"published_at": "2026-01-02T03:04:05Z"}"#
        )
        #expect(whole.object["published_at"] as? String == "2026-01-02T03:04:05Z")
        let cleared = try await client.send("PATCH", "drf/articles/\(id)/", json: #"{"published_at": null}"#)
        #expect(cleared.text.contains(#""published_at":null"#))
    }

    @Test func decimalsAndUUIDsTravelAsStrings() async throws {
        let client = try await DialectClient()
        let created = try await create(client, #"{"title": "Numbers", "rating": 4.5}"#)
        #expect(created["rating"] as? String == "4.50")
        let reference = try #require(created["reference"] as? String)
        #expect(UUID(uuidString: reference) != nil)

        let duplicate = try await client.send(
            "POST",
            "drf/articles/",
            json: #"{"title": "Copy", "reference": "\#(reference)"}"#
        )
        #expect(duplicate.status == 400)
        #expect(duplicate.text == #"{"reference":["article with this reference already exists."]}"#)
    }

    @Test func invalidFieldsAre400WithOneListOfMessagesPerField() async throws {
        let client = try await DialectClient()
        let blank = try await client.send("POST", "drf/articles/", json: #"{"title": ""}"#)
        #expect(blank.status == 400)
        #expect(blank.text == #"{"title":["This field may not be blank."]}"#)

        let missing = try await client.send("POST", "drf/articles/", json: "{}")
        #expect(missing.text == #"{"title":["This field is required."]}"#)

        let several = try await client.send(
            "POST",
            "drf/articles/",
            json: #"{"title": "ok", "website": "nope", "rating": "1234.5", "published_at": "soon"}"#
        )
        #expect(several.status == 400)
        let errors = several.object
        #expect(errors["website"] as? [String] == ["Enter a valid URL."])
        #expect(
            errors["rating"] as? [String] == ["Ensure that there are no more than 3 digits before the decimal point."]
        )
        let published = try #require(errors["published_at"] as? [String])
        #expect(published.first?.hasPrefix("Datetime has wrong format.") == true)
    }

    @Test func anObjectLevelRuleAnswersNonFieldErrors() async throws {
        let client = try await DialectClient()
        let same = try await client.send("POST", "drf/articles/", json: #"{"title": "Echo", "body": "Echo"}"#)
        #expect(same.status == 400)
        #expect(same.text == #"{"non_field_errors":["The body must not repeat the title."]}"#)

        let created = try await create(client, #"{"title": "Echo", "body": "different"}"#)
        let id = try #require(created["id"] as? Int)
        let patch = try await client.send("PATCH", "drf/articles/\(id)/", json: #"{"body": "Echo"}"#)
        #expect(patch.status == 400)
        #expect(patch.object["non_field_errors"] as? [String] == ["The body must not repeat the title."])
    }

    @Test func thePagedListWrapsResultsWithCountAndLinks() async throws {
        let client = try await DialectClient()
        for number in 1...7 {
            _ = try await create(client, #"{"title": "Paged \#(number)"}"#)
        }
        let first = try await client.send("GET", "drf/paged-articles/")
        #expect(first.status == 200)
        #expect((first.object["count"] as? Int ?? 0) >= 7)
        #expect((first.object["results"] as? [Any])?.count == 3)
        #expect(first.object["next"] as? String == client.absolute("drf/paged-articles/?page=2"))
        #expect(first.object["previous"] is NSNull)

        let second = try await client.send("GET", "drf/paged-articles/?page=2")
        #expect(second.object["previous"] as? String == client.absolute("drf/paged-articles/"))
        #expect(second.object["next"] as? String == client.absolute("drf/paged-articles/?page=3"))

        let beyond = try await client.send("GET", "drf/paged-articles/?page=9999")
        #expect(beyond.status == 404)
        #expect(beyond.text == #"{"detail":"Invalid page."}"#)
    }

    @Test func anAcceptHeaderJSONCannotSatisfyIs406() async throws {
        let client = try await DialectClient()
        let html = try await client.send("GET", "drf/articles/", headers: ["Accept": "text/html"])
        #expect(html.status == 406)
        #expect(html.text == #"{"detail":"Could not satisfy the request Accept header."}"#)
        let json = try await client.send("GET", "drf/articles/", headers: ["Accept": "application/json"])
        #expect(json.status == 200)
        #expect(json.mediaType == "application/json")
    }
}
