//: # JSON:API
//: `.jsonAPI` reads and writes JSON:API documents: resource objects with `type`, `id`,
//: `attributes` and `relationships`, and compound documents whose `included` records fill
//: the relations that link to them. `.drupalJSONAPI(type:)` is Drupal's flavour. A backend
//: that answers with canned documents shows what travels.
import Foundation
import Keel
import Synchronization

final class Writer: Model {
    override class var urlRoot: String? { "/people" }
    override class var wireFormat: WireFormat { .jsonAPI(type: "people", keys: KeyMapping(.dasherized)) }
}

final class Story: Model {
    static let author = BelongsTo<Writer>("author")
    override class var urlRoot: String? { "/articles" }
    override class var wireFormat: WireFormat { .jsonAPI(type: "articles", keys: KeyMapping(.dasherized)) }
    override class var relations: [any Relation] { [author] }
}

final class Documents: Sync {
    private let log = Mutex<[SyncRequest]>([])
    let answer: @Sendable (SyncRequest) -> (Int, JSONValue)

    init(answer: @escaping @Sendable (SyncRequest) -> (Int, JSONValue)) { self.answer = answer }

    var sent: [SyncRequest] { log.withLock { $0 } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        log.withLock { $0.append(request) }
        let (status, body) = answer(request)
        guard status < 400 else { throw .httpStatus(status, body: body) }
        return SyncResponse(status: status, body: body)
    }
}
//: A list with `include=author`: each story's author comes from `included`, without a
//: second request, and each resource's `meta` stays on its model.
let server = Documents { _ in
    (200, [
        "data": [
            ["type": "articles", "id": "1", "attributes": ["title": "Engines", "published-at": "2026-11-28"],
             "relationships": ["author": ["data": ["type": "people", "id": "9"]]], "meta": ["views": 12]],
            ["type": "articles", "id": "2", "attributes": ["title": "Looms"],
             "relationships": ["author": ["data": ["type": "people", "id": "9"]]], "meta": ["views": 3]],
        ],
        "included": [["type": "people", "id": "9", "attributes": ["name": "Ada"]]],
    ])
}
let map = IdentityMap()
let stories = Collection<Story>(factory: map.factory(for: Story.self, collection: "/articles"), url: "/articles", sync: server)
var options = SyncOptions()
options.resources.include = ["author"]
try await stories.fetch(options: options)
precondition(server.sent.first?.query == [URLQueryItem(name: "include", value: "author")])
precondition(server.sent.first?.headers["Accept"] == "application/vnd.api+json")
precondition(stories.first?["publishedAt"] == "2026-11-28")
precondition(stories.first?[Story.author]?["name"] == "Ada")
precondition(stories.first?.resourceMeta?["views"] == 12)
//: Through an identity map, both stories link to one `Writer` instance.
precondition(stories[0][Story.author] === stories[1][Story.author])
precondition(map.existing(Writer.self, id: 9, in: "/people") === stories[0][Story.author])
//: A save sends a resource object; the author goes as relationship linkage.
let draft = Story(["title": "Gears", "authorId": 9])
draft.sync = Documents { request in
    var resource = request.body?["data"]?.objectValue ?? [:]
    resource["id"] = "3"
    return (201, ["data": .object(resource)])
}
try await draft.save()
precondition(draft.id == 3)
//: Error objects reach `validationError` under the app's names through `source.pointer`.
let rejected = Story(["title": ""])
rejected.sync = Documents { _ in
    (422, ["errors": [
        ["detail": "can't be blank", "source": ["pointer": "/data/attributes/title"]],
        ["detail": "must exist", "source": ["pointer": "/data/attributes/author"]],
    ]])
}
do {
    try await rejected.save()
    preconditionFailure("the server refused the story")
} catch {
    precondition(rejected.validationError?["title"] == ["can't be blank"])
    precondition(rejected.validationError?["author"] == ["must exist"])
}
//: Drupal: `node--article` types, UUID ids, Drupal's field names, read-only members never sent.
final class Node: Model {
    override class var urlRoot: String? { "/jsonapi/node/article" }
    override class var wireFormat: WireFormat { .drupalJSONAPI(type: "node--article") }
}
let drupal = Documents { request in
    (200, ["data": ["type": "node--article", "id": "a1b2", "attributes": ["title": "Hi", "drupal_internal__nid": 5]]])
}
let node = Node(["id": "a1b2"])
node.sync = drupal
try await node.fetch()
precondition(node["drupal_internal__nid"] == 5)
try await node.save(["title": "Hello"])
precondition(drupal.sent.last?.body?["data"]?["attributes"] == ["title": "Hello"])
//: [Next](@next)
