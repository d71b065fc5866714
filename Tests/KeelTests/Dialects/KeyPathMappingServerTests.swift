import Foundation
import Keel
import KeelTestServer
import Testing

/// Key-path attribute mappings against the stock servers: a Rails user's included
/// organization read into a flat attribute, and a DRF nested serializer written from and read
/// into one.
@MainActor
struct KeyPathMappingServerTests {
    final class Organization: Model {
        override class var urlRoot: String? { "/organizations" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class User: Model {
        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.keys.paths["organizationName"] = "organization.name"
            format.roles["organizationName"] = .readOnly
            return format
        }
    }

    final class Attachment: Model {
        override class var urlRoot: String? { "/drf/attachments" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.djangoREST
            format.keys.paths = ["city": "address.city", "zip": "address.zip"]
            return format
        }
    }

    @Test func aRailsUserReadsItsOrganizationsNameIntoAFlatAttribute() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let acme = Organization(["name": "Acme"])
        acme.sync = rails
        try await acme.save()
        let user = User(["name": "Ada", "organizationId": acme.id ?? nil])
        user.sync = rails

        try await user.save()

        #expect(user["organizationName"] == "Acme")
        #expect(user["organization"]?["id"] == acme.id)
        #expect(user["organization"]?["name"] == nil)
    }

    @Test func aDjangoRESTAttachmentWritesAndReadsItsAddressThroughFlatAttributes() async throws {
        let server = try await TestServer.shared
        let attachment = Attachment(["title": "Scan", "city": "Oslo", "zip": "0150"])
        attachment.sync = RESTSync(baseURL: server.baseURL)

        try await attachment.save(files: ["file": .data(Data("scan".utf8), filename: "scan.txt")])

        let fetched = Attachment(["id": attachment.id ?? nil])
        fetched.sync = attachment.sync
        try await fetched.fetch()
        #expect(fetched["city"] == "Oslo")
        #expect(fetched["zip"] == "0150")
        #expect(fetched["address"] == nil)
    }
}
