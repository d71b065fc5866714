//: # Relations
//: A relation declared on the class keeps nested records live: a has-many is a
//: `Collection`, a has-one or belongs-to a model. The owner's attribute mirrors them as JSON.
import Keel

final class Invite: Model {}

final class Member: Model {
    static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
    override class var urlRoot: String? { "/members" }
    override class var wireFormat: WireFormat { .rails }
    override class var relations: [any Relation] { [invites] }
}

let member = Member(["id": 1, "name": "Ada", "invites": [["id": 7, "email": "grace@example.com"]]])
let invites = member[Member.invites]
precondition(invites.pluck("email") == ["grace@example.com"])
//: Setting or fetching merges by id: the same instances stay, changed fields fire their events.
let grace = invites.get(7)
member.set(["invites": [["id": 7, "email": "grace@navy.mil"], ["id": 8, "email": "alan@example.com"]]])
precondition(invites.get(7) === grace && invites.length == 2)
//: A child's change bubbles to the owner as `change:invites`, with the child and its path.
var paths: [String] = []
member.on("change:invites") { event in paths.append(event.nestedPath ?? "") }
invites.get(8)?.set(["email": "alan@bletchley.uk"])
precondition(paths == ["invites[1]"])
precondition(member["invites"]?[1]?["email"] == "alan@bletchley.uk")
//: Children live under the owner's URL.
precondition(invites.url == "/members/1/invites")
//: A save sends Rails' nested attributes: new and changed children, and `_destroy` for
//: removed ones, once the owner was synced.
final class Recorder: Sync {
    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        SyncResponse(body: ["id": 1])
    }
}
member.sync = Recorder()
try await member.save()
invites.remove(7)
invites.add(Invite(["email": "ida@example.com"]))
var body: JSONValue?
member.on("request") { event in body = event.request?.body }
try await member.save(patch: true)
precondition(body == ["member": ["invites_attributes": [["email": "ida@example.com"], ["id": 7, "_destroy": true]]]])
//: [Next](@next)
