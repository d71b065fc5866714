import Keel
import KeelTestServer
import Testing

/// Nested attributes against the stock Rails app (`accepts_nested_attributes_for :address,
/// allow_destroy: true`): a cleared has-one is destroyed through its owner, and a nested record
/// goes without its class's read-only attributes (NSRails' `shouldSendProperty:whenNested:`).
@MainActor
struct RailsNestedAttributesIntegrationTests {
    typealias User = RailsUsers.User

    private func rails() async throws -> RESTSync { try await RailsUsers.rails() }

    private func reloaded(_ user: Model) async throws -> User { try await RailsUsers.reloaded(user) }

    @Test func aClearedAddressIsDestroyedThroughItsUser() async throws {
        let user = User(["name": "Ada", "address": ["city": "London"]])
        user.sync = try await rails()
        try await user.save()
        #expect(user[User.address]?.id != nil)
        #expect(try await reloaded(user)[User.address]?["city"] == "London")

        user[User.address] = nil
        var sent: JSONValue?
        user.on("request") { event in sent = event.request?.body }
        try await user.save()
        #expect(sent?["user"]?["address_attributes"]?["_destroy"] == true)
        #expect(try await reloaded(user)[User.address] == nil)
    }

    @Test func aNestedAddressGoesWithoutItsTimestamps() async throws {
        let user = User(["name": "Ada", "address": ["city": "London"]])
        user.sync = try await rails()
        try await user.save()
        let address = try #require(user[User.address])
        #expect(address["createdAt"] != nil)
        address.set(["city": "Paris"])
        var sent: JSONValue?
        user.on("request") { event in sent = event.request?.body }
        try await user.save(options: SyncOptions(patch: false))
        let expected: JSONValue = ["id": address.id ?? nil, "city": "Paris", "user_id": user.id ?? nil]
        #expect(sent?["user"]?["address_attributes"] == expected)
        #expect(try await reloaded(user)[User.address]?["city"] == "Paris")
    }
}
