import Keel
import KeelTestServer

/// The Rails app's users with their invites and address, both saved through
/// `accepts_nested_attributes_for …, allow_destroy: true`.
enum RailsUsers {
    final class Invite: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class Address: Model {
        override class var wireFormat: WireFormat { .rails }
    }

    final class User: Model {
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
        static let address = HasOne<Address>("address", encoding: .nestedAttributes)
        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [invites, address] }
    }

    /// A backend on the Rails test server.
    static func rails() async throws -> RESTSync {
        RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
    }

    /// The user as the server has it now.
    @MainActor
    static func reloaded(_ user: Model) async throws -> User {
        let fetched = User(["id": user.id ?? nil])
        fetched.sync = try await rails()
        try await fetched.fetch()
        return fetched
    }
}
