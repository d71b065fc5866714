import Keel
import Testing

/// A related record inside its owner's body follows its own class's format (NSRails'
/// `shouldSendProperty:whenNested:`): its roles (the id always kept) and key names, and its own
/// relations encoded as they declare, empty ones left out, without loops.
@MainActor
struct NestedRecordEncodingTests {
    final class Organization: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Tag: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Invite: Model {
        static let organization = BelongsTo<Organization>("organization")
        static let tags = HasMany<Tag>("tags", encoding: .nestedAttributes)
        static let labels = HasMany<Tag>("labels")
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.keys.names["email"] = "email_address"
            format.roles["token"] = .readOnly
            return format
        }
        override class var relations: [any Relation] { [organization, tags, labels] }
    }

    final class Account: Model {
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
        override class var urlRoot: String? { "/accounts" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [invites] }
    }

    /// A parent whose child embeds the parent back.
    final class Folder: Model {
        static let files = HasMany<File>("files")
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [files] }
    }

    final class File: Model {
        static let folder = BelongsTo<Folder>("folder", encoding: .embedded)
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [folder] }
    }

    @Test func aNestedRecordLeavesOutItsClasssReadOnlyAttributesButKeepsItsID() {
        let account = Account(["name": "Acme"])
        account[Account.invites].add(
            Invite(["id": 5, "email": "a@x", "token": "secret", "createdAt": "2026-11-01T00:00:00Z"])
        )
        account[Account.invites].add(Invite(["email": "b@x", "id": nil]))
        #expect(
            WireFormat.rails.encode(account, for: .create)?["account"]?["invites_attributes"]
                == [["id": 5, "email_address": "a@x"], ["email_address": "b@x"]]
        )
    }

    @Test func aNestedRecordsOwnRelationsAreEncodedAsTheyDeclare() {
        let account = Account(["name": "Acme"])
        let invite = Invite(["email": "a@x"])
        invite[Invite.organization] = Organization(["id": 9, "name": "Org"])
        invite[Invite.tags].add(Tag(["name": "vip"]))
        account[Account.invites].add(invite)
        #expect(
            WireFormat.rails.encode(account, for: .create)?["account"]?["invites_attributes"] == [
                ["email_address": "a@x", "organization_id": 9, "tags_attributes": [["name": "vip"]]]
            ]
        )
    }

    @Test func aNestedRecordsEmptyRelationsAreLeftOut() {
        let account = Account(["name": "Acme"])
        account[Account.invites].add(Invite(["email": "a@x", "labels": [], "tags": []]))
        #expect(
            WireFormat.rails.encode(account, for: .create)?["account"]?["invites_attributes"]
                == [["email_address": "a@x"]]
        )
    }

    @Test func aRecordReachedAgainIsSentWithoutItsRelations() {
        let folder = Folder(["id": 1, "name": "Docs"])
        let child = File(["id": 2, "name": "a.txt"])
        folder[Folder.files].add(child)
        child[File.folder] = folder
        let file: JSONValue = ["id": 2, "name": "a.txt", "folder_id": 1, "folder": ["id": 1, "name": "Docs"]]
        #expect(WireFormat.rails.encode(folder, for: .update) == ["folder": ["name": "Docs", "files": [file]]])
    }
}
