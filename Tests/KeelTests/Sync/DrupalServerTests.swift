import Foundation
import Testing

/// A logged-in Drupal 8+ session: its cookie and its X-CSRF-Token.
private struct DrupalSession {
    let cookie: String
    let token: String
    let login: WireReply

    init(_ client: DialectClient) async throws {
        login = try await client.send("POST", "user/login?_format=json", json: #"{"name": "admin", "pass": "admin"}"#)
        try #require(login.status == 200, "\(login.text)")
        cookie = try #require(login.sessionCookie)
        let reply = try await client.send("GET", "session/token", cookie: cookie)
        token = reply.text
    }

    /// An unsafe request with the cookie and the token.
    func send(_ client: DialectClient, _ method: String, _ path: String, json: String? = nil) async throws -> WireReply
    {
        try await client.send(method, path, json: json, cookie: cookie, headers: ["X-CSRF-Token": token])
    }

    /// Creates a node; returns its entity JSON.
    func create(_ client: DialectClient, _ json: String) async throws -> [String: Any] {
        let reply = try await send(client, "POST", "node?_format=json", json: json)
        try #require(reply.status == 201, "\(reply.text)")
        return reply.object
    }
}

/// The first item's `property` of a Drupal entity field.
private func item(_ entity: [String: Any], _ field: String, _ property: String = "value") -> Any? {
    (entity[field] as? [[String: Any]])?.first?[property]
}

private let article = #"{"type": [{"target_id": "article"}], "title": [{"value": "Hello"}]}"#

/// The test server's emulation of Drupal 8+ core REST (`?_format=json`, cookie sessions,
/// X-CSRF-Token), spoken to with plain `URLSession`: what Keel's Drupal wire format will meet.
struct DrupalServerTests {
    @Test func anonymousVisitorsGetAPlainTextTokenButNoSession() async throws {
        let client = try await DialectClient()
        let reply = try await client.send("GET", "session/token")
        #expect(reply.status == 200)
        #expect(reply.mediaType == "text/plain")
        #expect(reply.text.wholeMatch(of: #/[A-Za-z0-9_-]{43}/#) != nil)
        #expect(reply.sessionCookie == nil)
    }

    @Test func loginSetsASessionCookieAndAnswersTheTokens() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let body = session.login.object
        let user = try #require(body["current_user"] as? [String: Any])
        #expect(user["uid"] as? String == "1")
        #expect(user["name"] as? String == "admin")
        #expect(user["roles"] as? [String] == ["authenticated", "administrator"])
        #expect((body["csrf_token"] as? String)?.count == 43)
        #expect((body["logout_token"] as? String)?.count == 43)
        #expect(session.cookie.hasPrefix("SESS"))
        #expect(session.login.headers["set-cookie"]?.contains("HttpOnly") == true)

        let again = try await client.send("GET", "session/token", cookie: session.cookie)
        #expect(again.text == session.token)
        let anonymous = try await client.send("GET", "session/token")
        #expect(anonymous.text != session.token)
    }

    @Test func badCredentialsAre400AndALoggedInSessionCannotLogInAgain() async throws {
        let client = try await DialectClient()
        let wrong = try await client.send("POST", "user/login?_format=json", json: #"{"name": "admin", "pass": "no"}"#)
        #expect(wrong.status == 400)
        #expect(wrong.text == #"{"message":"Sorry, unrecognized username or password."}"#)
        #expect(wrong.sessionCookie == nil)
        let missing = try await client.send("POST", "user/login?_format=json", json: #"{"name": "admin"}"#)
        #expect(missing.object["message"] as? String == "Missing credentials.pass.")

        let session = try await DrupalSession(client)
        let twice = try await session.send(
            client,
            "POST",
            "user/login?_format=json",
            json: #"{"name": "admin", "pass": "admin"}"#
        )
        #expect(twice.status == 403)
        #expect(twice.object["message"] as? String == "This route can only be accessed by anonymous users.")
    }

    @Test func unsafeRequestsOfASessionNeedItsCSRFToken() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let missing = try await client.send("POST", "node?_format=json", json: article, cookie: session.cookie)
        #expect(missing.status == 403)
        #expect(missing.text == #"{"message":"X-CSRF-Token request header is missing"}"#)
        let wrong = try await client.send(
            "POST",
            "node?_format=json",
            json: article,
            cookie: session.cookie,
            headers: ["X-CSRF-Token": "nope"]
        )
        #expect(wrong.status == 403)
        #expect(wrong.text == #"{"message":"X-CSRF-Token request header is invalid"}"#)

        let created = try await session.send(client, "POST", "node?_format=json", json: article)
        #expect(created.status == 201)
        let loginToken = try #require(session.login.object["csrf_token"] as? String)
        let withLoginToken = try await client.send(
            "POST",
            "node?_format=json",
            json: article,
            cookie: session.cookie,
            headers: ["X-CSRF-Token": loginToken]
        )
        #expect(withLoginToken.status == 201)
    }

    @Test func withoutASessionWritesAreForbidden() async throws {
        let client = try await DialectClient()
        let reply = try await client.send("POST", "node?_format=json", json: article)
        #expect(reply.status == 403)
        #expect(reply.text == #"{"message":"The \u0027create article content\u0027 permission is required."}"#)
    }

    @Test func theFormatComesFromTheQueryAndTheBodyMustBeJSON() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let list = try await client.send("GET", "api/articles")
        #expect(list.status == 406)
        #expect(list.text == #"{"message":"Not acceptable format: html"}"#)
        let xml = try await client.send("GET", "api/articles?_format=xml")
        #expect(xml.status == 406)
        let noFormat = try await session.send(client, "POST", "node", json: article)
        #expect(noFormat.status == 406)

        let text = try await client.send(
            "POST",
            "node?_format=json",
            json: article,
            contentType: "text/plain",
            cookie: session.cookie,
            headers: ["X-CSRF-Token": session.token]
        )
        #expect(text.status == 415)
        #expect(text.object["message"] as? String == #"No route found that matches "Content-Type: text/plain""#)

        let node = try await session.create(client, article)
        let nid = try #require(item(node, "nid") as? Int)
        let page = try await client.send("GET", "node/\(nid)")
        #expect(page.status == 200)
        #expect(page.mediaType == "text/html")
    }

    @Test func aCreatedNodeComesBackAsDrupalNormalizesIt() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let reply = try await session.send(
            client,
            "POST",
            "node?_format=json",
            json: #"""
                {"type": [{"target_id": "article"}], "title": [{"value": "Café <b>&</b> a/b"}],
                 "body": [{"value": "<p>Hi</p>", "format": "basic_html"}],
                 "field_tags": [{"target_id": 3}, {"target_id": 1}]}
                """#
        )
        #expect(reply.status == 201)
        let node = reply.object
        let nid = try #require(item(node, "nid") as? Int)
        #expect(reply.headers["location"] == client.absolute("node/\(nid)"))
        #expect(item(node, "title") as? String == "Café <b>&</b> a/b")
        #expect(reply.text.contains(#""title":[{"value":"Caf\u00e9 \u003Cb\u003E\u0026\u003C\/b\u003E a\/b"}]"#))
        #expect(reply.text.contains(#""status":[{"value":true}]"#))
        #expect(reply.text.contains(#""langcode":[{"value":"en"}]"#))
        #expect(item(node, "type", "target_id") as? String == "article")
        #expect(item(node, "type", "target_type") as? String == "node_type")
        #expect(item(node, "uid", "target_id") as? Int == 1)
        #expect(item(node, "uid", "url") as? String == "/user/1")
        #expect(UUID(uuidString: item(node, "uuid") as? String ?? "") != nil)
        let created = try #require(item(node, "created") as? String)
        #expect(created.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00/#) != nil)
        #expect(item(node, "created", "format") as? String == #"Y-m-d\TH:i:sP"#)
        #expect(item(node, "body", "processed") as? String == "<p>Hi</p>")
        let tags = try #require(node["field_tags"] as? [[String: Any]])
        #expect(tags.map { $0["target_id"] as? Int } == [3, 1])
        #expect(tags.first?["target_type"] as? String == "taxonomy_term")

        let read = try await client.send("GET", "node/\(nid)?_format=json")
        #expect(read.status == 200)
        #expect(read.text == reply.text)
    }

    @Test func aMissingTitleIs422WithDrupalsViolationList() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let reply = try await session.send(
            client,
            "POST",
            "node?_format=json",
            json: #"{"type": [{"target_id": "article"}], "title": []}"#
        )
        #expect(reply.status == 422)
        #expect(
            reply.object["message"] as? String
                == "Unprocessable Entity: validation failed.\ntitle: This value should not be null.\n"
        )
        let noType = try await session.send(client, "POST", "node?_format=json", json: #"{"title": [{"value": "x"}]}"#)
        #expect(noType.status == 422)
        #expect(
            noType.object["message"] as? String == #"Could not determine entity type bundle: "type" field is missing."#
        )
    }

    @Test func fieldsMustBeListsWhileItemsAndTheTypeMayBeBareValues() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let object = try await session.send(
            client,
            "POST",
            "node?_format=json",
            json: #"{"type": [{"target_id": "article"}], "title": {"value": "Not a list"}}"#
        )
        #expect(object.status == 422)
        let message = try #require(object.object["message"] as? String)
        #expect(message.hasPrefix("Unprocessable Entity: validation failed.\n"))
        #expect(message.contains("\ntitle: This value should be of the correct primitive type.\n"))

        let bare = try await session.send(
            client,
            "POST",
            "node?_format=json",
            json: #"{"type": "article", "title": ["Bare item"], "field_tags": [2]}"#
        )
        #expect(bare.status == 201)
        #expect(item(bare.object, "title") as? String == "Bare item")
        #expect(item(bare.object, "type", "target_id") as? String == "article")
        #expect(item(bare.object, "field_tags", "target_id") as? Int == 2)
    }

    @Test func patchChangesOnlyTheFieldsSentAndStillNeedsTheType() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let node = try await session.create(
            client,
            #"{"type": [{"target_id": "article"}], "title": [{"value": "Before"}], "body": [{"value": "Kept"}]}"#
        )
        let nid = try #require(item(node, "nid") as? Int)

        let patched = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"{"type": [{"target_id": "article"}], "title": [{"value": "After"}]}"#
        )
        #expect(patched.status == 200)
        #expect(item(patched.object, "title") as? String == "After")
        #expect(item(patched.object, "body") as? String == "Kept")
        #expect(item(patched.object, "uuid") as? String == item(node, "uuid") as? String)

        let untyped = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"{"title": [{"value": "No type"}]}"#
        )
        #expect(untyped.status == 422)
        let blank = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"{"type": [{"target_id": "article"}], "title": [{"value": ""}]}"#
        )
        #expect(blank.status == 422)
        #expect(
            blank.object["message"] as? String
                == "Unprocessable Entity: validation failed.\ntitle: This value should not be null.\n"
        )
    }

    @Test func readOnlyFieldsMaySendTheirValueButNotChangeIt() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let node = try await session.create(client, article)
        let nid = try #require(item(node, "nid") as? Int)
        let uuid = try #require(item(node, "uuid") as? String)
        let changed = try #require(item(node, "changed") as? String)

        let unchanged = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"""
                {"type": [{"target_id": "article"}], "nid": [{"value": \#(nid)}], "uuid": [{"value": "\#(uuid)"}],
                 "changed": [{"value": "\#(changed)"}], "title": [{"value": "Same ids"}]}
                """#
        )
        #expect(unchanged.status == 200)

        let newID = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"{"type": [{"target_id": "article"}], "nid": [{"value": \#(nid + 1000)}]}"#
        )
        #expect(newID.status == 403)
        #expect(
            newID.object["message"] as? String
                == "Access denied on updating field 'nid'. The entity ID cannot be changed."
        )
        let newChanged = try await session.send(
            client,
            "PATCH",
            "node/\(nid)?_format=json",
            json: #"{"type": [{"target_id": "article"}], "changed": [{"value": "2001-01-01T00:00:00+00:00"}]}"#
        )
        #expect(newChanged.status == 403)
        #expect(newChanged.object["message"] as? String == "Access denied on updating field 'changed'.")
    }

    @Test(arguments: ["GET", "PATCH", "DELETE"])
    func anUnknownNodeIs404NamingTheRoute(method: String) async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let reply = try await session.send(
            client,
            method,
            "node/987654?_format=json",
            json: method == "PATCH" ? article : nil
        )
        #expect(reply.status == 404)
        #expect(
            reply.object["message"] as? String
                == #"The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.\#(method)")"#
        )
    }

    @Test func deleteIs204AndTheNodeIsGone() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let nid = try #require(item(try await session.create(client, article), "nid") as? Int)
        let anonymous = try await client.send("DELETE", "node/\(nid)?_format=json")
        #expect(anonymous.status == 403)
        let delete = try await session.send(client, "DELETE", "node/\(nid)?_format=json")
        #expect(delete.status == 204)
        #expect(delete.body.isEmpty)
        #expect(try await client.send("GET", "node/\(nid)?_format=json").status == 404)
    }

    @Test func theViewsExportListsPublishedArticlesAsFullEntities() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let published = try #require(item(try await session.create(client, article), "nid") as? Int)
        let hidden = try #require(
            item(
                try await session.create(
                    client,
                    #"{"type": [{"target_id": "article"}], "title": [{"value": "Draft"}], "status": [{"value": false}]}"#
                ),
                "nid"
            ) as? Int
        )
        var listed: [[String: Any]] = []
        for page in 0..<100 {
            let reply = try await client.send("GET", "api/articles?_format=json&page=\(page)")
            #expect(reply.status == 200)
            let nodes = reply.array.compactMap { $0 as? [String: Any] }
            if nodes.isEmpty { break }
            listed += nodes
        }
        let nids = listed.compactMap { item($0, "nid") as? Int }
        #expect(nids.contains(published))
        #expect(!nids.contains(hidden))
        #expect(listed.allSatisfy { item($0, "type", "target_id") as? String == "article" })
    }

    @Test func logoutNeedsTheLogoutTokenAndEndsTheSession() async throws {
        let client = try await DialectClient()
        let session = try await DrupalSession(client)
        let logoutToken = try #require(session.login.object["logout_token"] as? String)
        let wrong = try await client.send("POST", "user/logout?_format=json&token=nope", cookie: session.cookie)
        #expect(wrong.status == 403)
        #expect(wrong.object["message"] as? String == "'csrf_token' URL query argument is invalid.")

        let logout = try await client.send(
            "POST",
            "user/logout?_format=json&token=\(logoutToken)",
            cookie: session.cookie
        )
        #expect(logout.status == 204)
        let after = try await session.send(client, "POST", "node?_format=json", json: article)
        #expect(after.status == 403)
        #expect(after.object["message"] as? String == "The 'create article content' permission is required.")
    }
}
