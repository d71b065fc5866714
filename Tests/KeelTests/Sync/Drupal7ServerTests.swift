import Foundation
import Testing

/// A logged-in Drupal 7 Services session: its cookie and its X-CSRF-Token.
private struct ServicesSession {
    let cookie: String
    let token: String
    let login: [String: Any]

    init(_ client: DialectClient) async throws {
        let reply = try await client.send(
            "POST",
            "d7/user/login.json",
            json: #"{"username": "admin", "password": "admin"}"#
        )
        try #require(reply.status == 200, "\(reply.text)")
        login = reply.object
        cookie = try #require(reply.sessionCookie)
        token = try #require(login["token"] as? String)
    }

    /// A request with the cookie and the token.
    func send(_ client: DialectClient, _ method: String, _ path: String, json: String? = nil) async throws -> WireReply
    {
        try await client.send(method, path, json: json, cookie: cookie, headers: ["X-CSRF-Token": token])
    }

    /// Creates a node; returns its nid.
    func create(_ client: DialectClient, _ json: String) async throws -> String {
        let reply = try await send(client, "POST", "d7/node.json", json: json)
        try #require(reply.status == 200, "\(reply.text)")
        return try #require(reply.object["nid"] as? String)
    }
}

private let article = #"""
    {"type": "article", "title": "Seven", "body": {"und": [{"value": "Text", "summary": "", "format": "filtered_html"}]},
     "field_tags": {"und": [{"tid": "3"}]}}
    """#

/// The test server's emulation of Drupal 7 with the Services module (endpoint `d7`, session
/// authentication), spoken to with plain `URLSession`.
struct Drupal7ServerTests {
    @Test func loginAnswersTheSessionAndAToken() async throws {
        let client = try await DialectClient()
        let reply = try await client.send(
            "POST",
            "d7/user/login.json",
            json: #"{"username": "admin", "password": "admin"}"#
        )
        #expect(reply.status == 200)
        let body = reply.object
        let name = try #require(body["session_name"] as? String)
        let id = try #require(body["sessid"] as? String)
        #expect(name.hasPrefix("SESS"))
        #expect(reply.sessionCookie == "\(name)=\(id)")
        let user = try #require(body["user"] as? [String: Any])
        #expect(user["uid"] as? String == "1")
        #expect(user["name"] as? String == "admin")

        let token = try await client.send("POST", "d7/user/token.json", cookie: reply.sessionCookie)
        #expect(token.status == 200)
        #expect(token.object["token"] as? String == body["token"] as? String)
    }

    @Test func badCredentialsAre401WithTheMessageInAList() async throws {
        let client = try await DialectClient()
        let reply = try await client.send(
            "POST",
            "d7/user/login.json",
            json: #"{"username": "admin", "password": "wrong"}"#
        )
        #expect(reply.status == 401)
        #expect(reply.text == #"["Wrong username or password."]"#)
        #expect(reply.sessionCookie == nil)
    }

    @Test func writesNeedASessionAndItsToken() async throws {
        let client = try await DialectClient()
        let anonymous = try await client.send("POST", "d7/node.json", json: article)
        #expect(anonymous.status == 401)
        #expect(anonymous.text == #"["Access denied for user anonymous"]"#)

        let session = try await ServicesSession(client)
        let missing = try await client.send("POST", "d7/node.json", json: article, cookie: session.cookie)
        #expect(missing.status == 401)
        #expect(missing.text == #"["CSRF validation failed"]"#)
        let wrong = try await client.send(
            "POST",
            "d7/node.json",
            json: article,
            cookie: session.cookie,
            headers: ["X-CSRF-Token": "nope"]
        )
        #expect(wrong.status == 401)
    }

    @Test func nodesAreCreatedReadUpdatedAndDeleted() async throws {
        let client = try await DialectClient()
        let session = try await ServicesSession(client)
        let created = try await session.send(client, "POST", "d7/node.json", json: article)
        #expect(created.status == 200)
        let nid = try #require(created.object["nid"] as? String)
        #expect(created.object["uri"] as? String == client.absolute("d7/node/\(nid)"))
        #expect(created.text.contains(#""uri":"http:\/\/127.0.0.1:"#))

        let read = try await client.send("GET", "d7/node/\(nid).json")
        #expect(read.status == 200)
        let node = read.object
        #expect(node["nid"] as? String == nid)
        #expect(node["title"] as? String == "Seven")
        #expect(node["type"] as? String == "article")
        #expect(node["status"] as? String == "1")
        #expect((node["created"] as? String)?.wholeMatch(of: #/[0-9]+/#) != nil)
        let body = try #require((node["body"] as? [String: Any])?["und"] as? [[String: Any]])
        #expect(body.first?["value"] as? String == "Text")
        #expect(body.first?["safe_value"] as? String == "<p>Text</p>\n")
        let tags = try #require((node["field_tags"] as? [String: Any])?["und"] as? [[String: Any]])
        #expect(tags.first?["tid"] as? String == "3")

        let updated = try await session.send(client, "PUT", "d7/node/\(nid).json", json: #"{"title": "Renamed"}"#)
        #expect(updated.status == 200)
        #expect(updated.object["nid"] as? String == nid)
        #expect(updated.object["uri"] as? String == client.absolute("d7/node/\(nid)"))
        let reread = try await client.send("GET", "d7/node/\(nid).json")
        #expect(reread.object["title"] as? String == "Renamed")
        #expect(reread.text.contains(#""value":"Text""#))

        let deleted = try await session.send(client, "DELETE", "d7/node/\(nid).json")
        #expect(deleted.status == 200)
        #expect(deleted.text == "[true]")
        let gone = try await client.send("GET", "d7/node/\(nid).json")
        #expect(gone.status == 404)
        #expect(gone.text == #"["Node \#(nid) could not be found"]"#)
    }

    @Test func emptyFieldsAreEmptyArraysNotObjects() async throws {
        let client = try await DialectClient()
        let session = try await ServicesSession(client)
        let nid = try await session.create(client, #"{"type": "article", "title": "Bare"}"#)
        let read = try await client.send("GET", "d7/node/\(nid).json")
        #expect(read.text.contains(#""body":[]"#))
        #expect(read.text.contains(#""field_tags":[]"#))
    }

    @Test func aMissingTitleIs406WithFormErrors() async throws {
        let client = try await DialectClient()
        let session = try await ServicesSession(client)
        let reply = try await session.send(client, "POST", "d7/node.json", json: #"{"type": "article", "title": ""}"#)
        #expect(reply.status == 406)
        #expect(reply.text == #"{"form_errors":{"title":"Title field is required."}}"#)
        let untyped = try await session.send(client, "POST", "d7/node.json", json: #"{"title": "No type"}"#)
        #expect(untyped.status == 406)
        #expect(untyped.text == #"["Missing node type"]"#)
    }

    @Test func theIndexListsSummariesWithStringValues() async throws {
        let client = try await DialectClient()
        let session = try await ServicesSession(client)
        let nid = try await session.create(client, article)
        var summaries: [[String: Any]] = []
        for page in 0..<100 {
            let reply = try await client.send("GET", "d7/node.json?page=\(page)")
            #expect(reply.status == 200)
            let items = reply.array.compactMap { $0 as? [String: Any] }
            if items.isEmpty { break }
            summaries += items
        }
        let summary = try #require(summaries.first { $0["nid"] as? String == nid })
        #expect(summary["title"] as? String == "Seven")
        #expect(summary["type"] as? String == "article")
        #expect(summary["uri"] as? String == client.absolute("d7/node/\(nid)"))
        #expect(summary["vid"] is String)
        #expect(summary["body"] == nil)
    }
}
