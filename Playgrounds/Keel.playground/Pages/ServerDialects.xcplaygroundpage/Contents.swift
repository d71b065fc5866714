//: # Server dialects
//: A `WireFormat` on the model class makes Keel speak a server's dialect: Rails' root keys
//: and snake_case, Django REST framework's trailing slashes, Drupal's field items. The app
//: keeps its own names. A backend that records each request shows what goes on the wire.
import Foundation
import Keel
import Synchronization

final class Chore: Model {
    override class var urlRoot: String? { "/chores" }
    override class var wireFormat: WireFormat { .rails }
}

final class Wire: Sync {
    private let log = Mutex<[String]>([])
    let answer: @Sendable (SyncRequest) -> JSONValue

    init(answer: @escaping @Sendable (SyncRequest) -> JSONValue) { self.answer = answer }

    var sent: [String] { log.withLock { $0 } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let line = "\(request.method) \(request.path) \((try? request.body?.jsonString()) ?? "")"
        log.withLock { $0.append(line) }
        return SyncResponse(status: request.method == .create ? 201 : 200, body: answer(request))
    }
}
//: Rails: the body goes wrapped in the root key, snake_case, without read-only attributes;
//: the answer may come wrapped or not, and its names are mapped back.
let rails = Wire { _ in ["chore": ["id": 1, "title": "Ship", "due_at": "2026-12-01", "created_at": "2026-11-23"]] }
let chore = Chore(["title": "Ship", "dueAt": "2026-12-01"])
chore.sync = rails
try await chore.save()
precondition(rails.sent == [#"create /chores {"chore":{"title":"Ship","due_at":"2026-12-01"}}"#])
precondition(chore["createdAt"] == "2026-11-23" && chore.id == 1)
//: A patch goes through the same pipeline.
try await chore.save(["dueAt": "2026-12-02"], patch: true)
precondition(rails.sent.last == #"patch /chores/1 {"chore":{"due_at":"2026-12-02"}}"#)
//: Django REST framework: a collection can use another format than its models' class.
let drf = Wire { _ in [["id": 4, "title": "Read", "due_at": "2026-12-03"]] }
let chores = Collection<Chore>(url: "/api/chores", sync: drf)
chores.wireFormat = .djangoREST
try await chores.fetch()
precondition(drf.sent == ["read /api/chores/ "])
precondition(chores.first?["dueAt"] == "2026-12-03")
let choreURL = try chores.first?.url()
precondition(choreURL == "/api/chores/4/")
//: Drupal: field items unwrap to plain values; `nid` is the id; `_format=json` is added.
let drupal = Wire { _ in ["nid": [["value": 9]], "title": [["value": "Hello"]], "type": [["target_id": "page"]]] }
let page = Chore(["id": 9])
page.sync = drupal
try await page.fetch(options: SyncOptions(wireFormat: .drupal))
precondition(page.attributes == ["id": 9, "title": "Hello", "type": "page"])
//: [Next](@next)
