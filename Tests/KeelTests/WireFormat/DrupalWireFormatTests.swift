import Foundation
import Keel
import Testing

/// The Drupal presets: field items unwrapped and wrapped back, `nid` as the id, `?_format=json`,
/// the bundle sent with every PATCH; Drupal 7's language-wrapped fields and `.json` paths.
@MainActor
struct DrupalWireFormatTests {
    enum Drupal {
        final class Article: Model {
            override class var urlRoot: String? { "/node" }
            override class var wireFormat: WireFormat { .drupal }
        }

        final class Story: Model {
            override class var urlRoot: String? { "/d7/node" }
            override class var wireFormat: WireFormat { .drupal7 }
        }
    }

    nonisolated static let entity: JSONValue = [
        "nid": [["value": 7]],
        "uuid": [["value": "0b7a"]],
        "type": [["target_id": "article", "target_type": "node_type"]],
        "title": [["value": "Hello"]],
        "status": [["value": true]],
        "uid": [["target_id": 1, "target_type": "user", "url": "/user/1"]],
        "body": [["value": "<p>Hi</p>", "format": "basic_html", "summary": ""]],
        "field_tags": [["target_id": 3], ["target_id": 4]],
        "field_image": [],
        "_links": ["self": ["href": "/node/7"]],
    ]

    @Test func fetchUnwrapsFieldItems() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: Self.entity))
        let article = Drupal.Article(["id": 7])
        article.sync = backend
        try await article.fetch()
        #expect(backend.requests.first?.url.absoluteString == "/node/7")
        #expect(backend.requests.first?.query == [URLQueryItem(name: "_format", value: "json")])
        #expect(
            article.attributes == [
                "id": 7, "uuid": "0b7a", "type": "article", "title": "Hello", "status": true, "uid": 1,
                "body": "<p>Hi</p>",
                "fieldTags": [3, 4], "fieldImage": nil, "_links": ["self": ["href": "/node/7"]],
            ]
        )
    }

    @Test func savesWrapFieldsAndAPatchCarriesTheBundle() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(status: request.method == .create ? 201 : 200, body: Self.entity)
        }
        let article = Drupal.Article(["type": "article", "title": "Hello"])
        article.sync = backend
        try await article.save()
        #expect(backend.requests[0].method == .create)
        #expect(backend.requests[0].url.absoluteString == "/node")
        #expect(backend.requests[0].body == ["type": [["target_id": "article"]], "title": [["value": "Hello"]]])

        try await article.save(["title": "Bye"], patch: true)
        #expect(backend.requests[1].method == .patch)
        #expect(backend.requests[1].url.absoluteString == "/node/7")
        #expect(backend.requests[1].body == ["type": [["target_id": "article"]], "title": [["value": "Bye"]]])
    }

    @Test func aFieldThatIsNotAListOfItemsThrowsNamingIt() async throws {
        let article = Drupal.Article(["id": 7, "title": "kept"])
        article.sync = ScriptedSync(always: SyncResponse(body: ["nid": [["value": 7]], "title": "Hello"]))
        await #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "title",
                reason: "a Drupal field is a list of items, not \"Hello\""
            )
        ) {
            try await article.fetch()
        }
        #expect(article["title"] == "kept")
    }

    @Test func drupalValidationMessagesBecomeFieldErrors() async throws {
        let body: JSONValue = [
            "message":
                "Unprocessable Entity: validation failed.\ntitle: This value should not be null.\nfield_tags.0.target_id: Unknown term.\n"
        ]
        let article = Drupal.Article(["type": "article"])
        article.sync = ScriptedSync(failing: SyncError(failing: SyncResponse(status: 422, body: body)))
        await #expect(throws: SyncError.self) { try await article.save() }
        #expect(article.validationError?["title"] == ["This value should not be null."])
        #expect(article.validationError?["fieldTags.0.targetId"] == ["Unknown term."])
    }

    @Test func otherDrupalMessagesStayHTTPErrors() {
        let error = SyncError(failing: SyncResponse(status: 400, body: ["message": "Syntax error"]))
        #expect(error == .httpStatus(400, body: ["message": "Syntax error"]))
    }

    @Test func drupal7UnwrapsLanguageFieldsAndUsesJSONPaths() async throws {
        let backend = ScriptedSync { request in
            switch request.method {
            case .create: SyncResponse(body: ["nid": "5", "uri": "http://127.0.0.1/d7/node/5"])
            default:
                SyncResponse(body: [
                    "nid": "5", "title": "Hi", "type": "article",
                    "body": ["und": [["value": "Text", "summary": "", "format": "filtered_html"]]],
                    "field_tags": ["und": [["tid": "3"]]], "field_empty": [],
                ])
            }
        }
        var format = WireFormat.drupal7
        format.drupalFields?.itemKeys["field_tags"] = "tid"
        let story = Drupal.Story(["type": "article", "title": "Hi", "body": "Text"])
        story.sync = backend
        try await story.save(options: SyncOptions(wireFormat: format))
        #expect(backend.requests[0].url.absoluteString == "/d7/node.json")
        #expect(backend.requests[0].body == ["type": "article", "title": "Hi", "body": ["und": [["value": "Text"]]]])
        #expect(story.id == "5")
        try await story.fetch(options: SyncOptions(wireFormat: format))
        #expect(backend.requests[1].url.absoluteString == "/d7/node/5.json")
        #expect(story["body"] == "Text")
        #expect(story["fieldTags"] == "3")
        #expect(story["fieldEmpty"] == .null)
        try await story.save(options: SyncOptions(wireFormat: format))
        #expect(backend.requests[2].method == .update)
        #expect(backend.requests[2].body?["field_tags"] == ["und": [["tid": "3"]]])
    }
}
