import Foundation
import KeelTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One response of the Rails test server, its body read with Foundation's JSON parser.
private struct RailsReply {
    let status: Int
    let headers: [AnyHashable: Any]
    let body: Data

    /// The body as JSON, or nil when it is empty or not JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed) }
    /// The body as a JSON object.
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    /// The body as a JSON array.
    var array: [Any] { json as? [Any] ?? [] }

    func header(_ name: String) -> String? {
        headers.first { ($0.key as? String)?.lowercased() == name.lowercased() }?.value as? String
    }
}

/// Sends one request to the shared Rails test server through a plain ephemeral URLSession
/// (no Keel in between): `body` is encoded by JSONSerialization.
private func rails(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> RailsReply {
    let server = try await RailsTestServer.shared
    var request = URLRequest(url: server.url(path))
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let body {
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
    }
    let (data, response) = try await railsSession.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return RailsReply(status: http.statusCode, headers: http.allHeaderFields, body: data)
}

private let railsSession = URLSession(configuration: .ephemeral)

/// A name no other test (or earlier run) uses, for uniqueness-validated attributes.
private func uniqueName(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8))"
}

/// The integer `id` of a JSON object.
private func id(of object: Any?) throws -> Int {
    try #require((object as? [String: Any])?["id"] as? Int)
}

/// The `Tests/RailsServer` app answers like a stock Rails 6.1 API app; these tests talk to it
/// with URLSession and JSONSerialization only, so they check the server, not Keel.
struct RailsServerTests {
    // MARK: - Scaffold resource: notes

    @Test func createsANoteFromARootWrappedBodyWith201AndLocation() async throws {
        let reply = try await rails("POST", "notes", ["note": ["title": "Wrapped", "body": "text"]])
        #expect(reply.status == 201)
        let note = reply.object
        #expect(note["title"] as? String == "Wrapped")
        #expect(note["body"] as? String == "text")
        #expect(note["done"] as? Bool == false)
        #expect(note["priority"] is NSNull)
        let noteID = try id(of: note)
        #expect(reply.header("Location")?.hasSuffix("/notes/\(noteID)") == true)
        #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
    }

    @Test func wrapsAnUnwrappedBodyInTheControllersRoot() async throws {
        let reply = try await rails("POST", "notes", ["title": "Unwrapped", "done": true])
        #expect(reply.status == 201)
        #expect(reply.object["title"] as? String == "Unwrapped")
        #expect(reply.object["done"] as? Bool == true)
    }

    @Test func aNoteWithoutTitleAnswers422WithFlatErrors() async throws {
        let reply = try await rails("POST", "notes", ["note": ["body": "no title"]])
        #expect(reply.status == 422)
        #expect(reply.object.count == 1)
        #expect(reply.object["title"] as? [String] == ["can't be blank"])
    }

    @Test func patchAndPutBothUpdateANote() async throws {
        let noteID = try id(of: try await rails("POST", "notes", ["note": ["title": "Before"]]).json)

        let patched = try await rails("PATCH", "notes/\(noteID)", ["note": ["title": "Patched"]])
        #expect(patched.status == 200)
        #expect(patched.object["title"] as? String == "Patched")

        let put = try await rails("PUT", "notes/\(noteID)", ["body": "Put", "done": true])
        #expect(put.status == 200)

        let stored = try await rails("GET", "notes/\(noteID)").object
        #expect(stored["title"] as? String == "Patched")
        #expect(stored["body"] as? String == "Put")
        #expect(stored["done"] as? Bool == true)
    }

    @Test func datetimesHaveMillisecondsAndZAndDecimalsAreStrings() async throws {
        let reply = try await rails(
            "POST",
            "notes",
            ["note": ["title": "Due", "due_at": "2026-01-02T03:04:05.678Z", "priority": 12.5]]
        )
        #expect(reply.status == 201)
        let note = reply.object
        #expect(note["due_at"] as? String == "2026-01-02T03:04:05.678Z")
        #expect(note["priority"] as? String == "12.5")
        let createdAt = try #require(note["created_at"] as? String)
        #expect(createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    @Test func destroyAnswers204AndTheNoteIsGone() async throws {
        let noteID = try id(of: try await rails("POST", "notes", ["note": ["title": "Doomed"]]).json)

        let destroyed = try await rails("DELETE", "notes/\(noteID)")
        #expect(destroyed.status == 204)
        #expect(destroyed.body.isEmpty)

        let gone = try await rails("GET", "notes/\(noteID)")
        #expect(gone.status == 404)
        #expect(gone.object["error"] as? String == "not found")
    }

    @Test func unknownRecordsAnswer404WithAJSONError() async throws {
        for path in ["notes/999999999", "people/999999999", "users/999999999/invites"] {
            let reply = try await rails("GET", path)
            #expect(reply.status == 404, "\(path)")
            #expect(reply.object["error"] as? String == "not found", "\(path)")
        }
    }

    // MARK: - include_root_in_json: people

    @Test func aPersonRendersUnderItsRootAndListsWrapEachElement() async throws {
        let created = try await rails("POST", "people", ["person": ["name": "Ada", "email": "ada@example.com"]])
        #expect(created.status == 201)
        #expect(created.object.keys.sorted() == ["person"])
        let personID = try id(of: created.object["person"])

        let shown = try await rails("GET", "people/\(personID)")
        #expect((shown.object["person"] as? [String: Any])?["email"] as? String == "ada@example.com")

        let list = try await rails("GET", "people").array
        #expect(list.allSatisfy { ($0 as? [String: Any])?.keys.sorted() == ["person"] })
        #expect(try list.contains { try id(of: ($0 as? [String: Any])?["person"]) == personID })
    }

    @Test func anUnwrappedPersonIsWrappedAndItsErrorsAreFlat() async throws {
        let created = try await rails("POST", "people", ["name": "Grace"])
        #expect(created.status == 201)
        #expect((created.object["person"] as? [String: Any])?["name"] as? String == "Grace")

        let invalid = try await rails("POST", "people", ["person": ["email": "nobody@example.com"]])
        #expect(invalid.status == 422)
        #expect(invalid.object["name"] as? [String] == ["can't be blank"])
    }

    // MARK: - Explicit roots: categories

    @Test func categoriesRenderUnderExplicitRoots() async throws {
        let name = uniqueName("Books")
        let created = try await rails("POST", "categories", ["category": ["name": name]])
        #expect(created.status == 201)
        let categoryID = try id(of: created.object["category"])

        let shown = try await rails("GET", "categories/\(categoryID)")
        #expect((shown.object["category"] as? [String: Any])?["name"] as? String == name)

        let list = try await rails("GET", "categories")
        #expect(list.object.keys.sorted() == ["categories"])
        let categories = try #require(list.object["categories"] as? [Any])
        #expect(try categories.contains { try id(of: $0) == categoryID })
    }

    @Test func aDuplicateCategoryAnswers422WithWrappedErrors() async throws {
        let name = uniqueName("Music")
        #expect(try await rails("POST", "categories", ["category": ["name": name]]).status == 201)

        let duplicate = try await rails("POST", "categories", ["category": ["name": name]])
        #expect(duplicate.status == 422)
        let errors = try #require(duplicate.object["errors"] as? [String: Any])
        #expect(errors["name"] as? [String] == ["has already been taken"])
    }

    // MARK: - Nested attributes and routes: users and invites

    @Test func aUserSavesAndRemovesItsInvitesThroughNestedAttributes() async throws {
        let created = try await rails(
            "POST",
            "users",
            ["user": ["name": "Host", "invites_attributes": [["email": "a@example.com"], ["email": "b@example.com"]]]]
        )
        #expect(created.status == 201)
        let userID = try id(of: created.json)
        let invites = try #require(created.object["invites"] as? [[String: Any]])
        #expect(invites.compactMap { $0["email"] as? String } == ["a@example.com", "b@example.com"])
        let (first, second) = (try id(of: invites[0]), try id(of: invites[1]))

        let updated = try await rails(
            "PATCH",
            "users/\(userID)",
            [
                "user": [
                    "invites_attributes": [
                        ["id": first, "email": "a2@example.com"], ["id": second, "_destroy": true],
                    ]
                ]
            ]
        )
        #expect(updated.status == 200)
        let remaining = try #require(updated.object["invites"] as? [[String: Any]])
        #expect(remaining.count == 1)
        #expect(remaining.first?["email"] as? String == "a2@example.com")

        let nested = try await rails("GET", "users/\(userID)/invites")
        #expect(nested.status == 200)
        #expect(try nested.array.map { try id(of: $0) } == [first])
    }

    @Test func anInvalidNestedInviteAnswers422WithADottedKey() async throws {
        let reply = try await rails("POST", "users", ["user": ["name": "Host", "invites_attributes": [["email": ""]]]])
        #expect(reply.status == 422)
        let errors = try #require(reply.object["errors"] as? [String: Any])
        #expect(errors["invites.email"] as? [String] == ["can't be blank"])
    }

    @Test func invitesLiveUnderTheirUsersRoute() async throws {
        let owner = try id(of: try await rails("POST", "users", ["user": ["name": "Owner"]]).json)
        let stranger = try id(of: try await rails("POST", "users", ["user": ["name": "Stranger"]]).json)

        let created = try await rails("POST", "users/\(owner)/invites", ["invite": ["email": "c@example.com"]])
        #expect(created.status == 201)
        let inviteID = try id(of: created.json)
        #expect(created.object["user_id"] as? Int == owner)
        #expect(created.header("Location")?.hasSuffix("/users/\(owner)/invites/\(inviteID)") == true)

        #expect(try await rails("GET", "users/\(owner)/invites/\(inviteID)").status == 200)
        let elsewhere = try await rails("GET", "users/\(stranger)/invites/\(inviteID)")
        #expect(elsewhere.status == 404)
        #expect(elsewhere.object["error"] as? String == "not found")

        let user = try await rails("GET", "users/\(owner)")
        let invites = try #require(user.object["invites"] as? [Any])
        #expect(try invites.map { try id(of: $0) } == [inviteID])
    }

    // MARK: - Test support

    @Test func resetDeletesEveryRecord() async throws {
        // A server of its own: resetting the shared one would delete the other tests' records.
        let server = try await RailsTestServer.dedicated(to: "RailsServerTests.reset")
        var create = URLRequest(url: server.url("notes"))
        create.httpMethod = "POST"
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(#"{"note": {"title": "Soon gone"}}"#.utf8)
        let (_, created) = try await railsSession.data(for: create)
        #expect((created as? HTTPURLResponse)?.statusCode == 201)

        try await server.reset()

        let (body, _) = try await railsSession.data(from: server.url("notes"))
        #expect(String(decoding: body, as: UTF8.self) == "[]")
    }

    // MARK: - Concurrency

    @Test func concurrentWritesAllSucceed() async throws {
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for index in 0..<24 {
                group.addTask {
                    let created = try await rails(
                        "POST",
                        "users",
                        ["user": ["name": "Busy \(index)", "invites_attributes": [["email": "\(index)@example.com"]]]]
                    )
                    guard created.status == 201 else { return [created.status] }
                    let userID = try id(of: created.json)
                    let renamed = try await rails("PATCH", "users/\(userID)", ["user": ["name": "Renamed \(index)"]])
                    let category = try await rails("POST", "categories", ["name": uniqueName("Busy")])
                    let destroyed = try await rails("DELETE", "users/\(userID)")
                    return [created.status, renamed.status, category.status, destroyed.status]
                }
            }
            return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        #expect(statuses.count == 24 * 4)
        #expect(statuses.allSatisfy { [200, 201, 204].contains($0) }, "\(statuses.sorted())")
    }
}
