import Keel

/// The models of the relation tests: a user with invites (Rails nested attributes), a profile
/// and an organization.
enum Relations {
    final class Invite: Model {}

    final class Profile: Model {}

    final class Organization: Model {
        override class var urlRoot: String? { "/organizations" }
    }

    final class User: Model {
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
        static let profile = HasOne<Profile>("profile")
        static let organization = BelongsTo<Organization>("organization")

        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [invites, profile, organization] }
    }
}
