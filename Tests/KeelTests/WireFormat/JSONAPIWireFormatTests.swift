import Keel
import Testing

/// The JSON:API preset's mapping rules, on documents written out in full: how ids map, key
/// conventions, linkage in request bodies, and compound documents with repeats and cycles.
@MainActor
struct JSONAPIWireFormatTests {
    enum API {
        final class Person: Model {
            static let employer = BelongsTo<Company>("employer")
            override class var urlRoot: String? { "/people" }
            override class var wireFormat: WireFormat { .jsonAPI(type: "people", keys: KeyMapping(.dasherized)) }
            override class var relations: [any Relation] { [employer] }
        }

        final class Company: Model {
            static let staff = HasMany<Person>("staff")
            static let founder = BelongsTo<Person>("founder")
            override class var urlRoot: String? { "/companies" }
            override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
            override class var relations: [any Relation] { [staff, founder] }
        }

        final class Cactus: Model {
            override class var pluralResourceName: String { "cacti" }
        }

        final class TodoItem: Model {}
    }

    @Test func theTypeIsTheClassesPluralResourceNameDasherized() {
        #expect(JSONAPIFormat().resourceType(of: API.TodoItem.self) == "todo-items")
        #expect(JSONAPIFormat().resourceType(of: API.Cactus.self) == "cacti")
    }

    private nonisolated static func person(id: String) -> JSONValue {
        ["data": ["type": "people", "id": .string(id), "attributes": ["first-name": "Ada"]]]
    }

    @Test func canonicalDigitStringsReadAsIntegersAndEveryOtherIDAsAString() async throws {
        for (wire, app) in [
            ("42", JSONValue.int(42)), ("0", .int(0)), ("042", .string("042")), ("a7", .string("a7")),
            ("-3", .string("-3")), ("99999999999999999999", .string("99999999999999999999")),
        ] {
            let person = API.Person(["id": 1])
            person.sync = ScriptedSync(always: SyncResponse(body: Self.person(id: wire)))
            try await person.fetch()
            #expect(person.id == app, "id \(wire)")
            #expect(person["firstName"] == "Ada")
        }
    }

    @Test func idsAndLinkageTravelAsStringsWithDasherizedMemberNames() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: Self.person(id: "5")) }
        let person = API.Person(["firstName": "Ada", "employerId": 12])
        person.sync = backend
        try await person.save()
        #expect(
            backend.requests.first?.body == [
                "data": [
                    "type": "people", "attributes": ["first-name": "Ada"],
                    "relationships": ["employer": ["data": ["type": "companies", "id": "12"]]],
                ]
            ]
        )
        try await person.save(["lastName": "Lovelace"], patch: true)
        #expect(backend.requests.last?.method == .patch)
        #expect(
            backend.requests.last?.body == [
                "data": ["type": "people", "id": "5", "attributes": ["last-name": "Lovelace"]]
            ]
        )

        let company = API.Company(["id": "acme", "staff": [["id": 5], ["id": "x9"]]])
        company.sync = backend
        try await company.save(wait: true)
        #expect(
            backend.requests.last?.body?["data"]?["relationships"] == [
                "staff": ["data": [["type": "people", "id": "5"], ["type": "people", "id": "x9"]]]
            ]
        )
    }

    @Test func includedRecordsFillRelationsOnceEachAndCyclesEndAtAnID() async throws {
        let document: JSONValue = [
            "data": [
                "type": "companies", "id": "1", "attributes": ["name": "Acme"],
                "relationships": [
                    "staff": ["data": [["type": "people", "id": "5"], ["type": "people", "id": "6"]]],
                    "founder": ["data": ["type": "people", "id": "5"]],
                ],
            ],
            "included": [
                [
                    "type": "people", "id": "5", "attributes": ["first-name": "Ada"],
                    "relationships": ["employer": ["data": ["type": "companies", "id": "1"]]],
                ],
                ["type": "people", "id": "6", "attributes": ["first-name": "Grace"]],
                ["type": "people", "id": "6", "attributes": ["last-name": "Hopper"]],
            ],
            "meta": ["copyright": "Acme"],
        ]
        let company = API.Company(["id": 1])
        company.sync = ScriptedSync(always: SyncResponse(body: document))
        let response = try await company.fetch()
        let staff = company[API.Company.staff]
        #expect(staff.pluck("firstName") == ["Ada", "Grace"])
        #expect(staff.last?["lastName"] == "Hopper")
        #expect(company[API.Company.founder]?["firstName"] == "Ada")
        #expect(company["founderId"] == 5)
        #expect(staff.first?["employerId"] == 1)
        #expect(staff.first?[API.Person.employer]?.attributes == ["id": 1])
        #expect(response.jsonAPIMeta == ["copyright": "Acme"])
    }

    @Test func aRelationshipWithoutDataLeavesTheRelationAsItIs() async throws {
        let document: JSONValue = [
            "data": [
                "type": "companies", "id": "1", "attributes": ["name": "Acme"],
                "relationships": ["staff": ["links": ["related": "/companies/1/staff"]]],
                "meta": ["rank": 3], "links": ["self": "/companies/1"],
            ]
        ]
        let company = API.Company(["id": 1, "staff": [["id": 5, "firstName": "Ada"]]])
        company.sync = ScriptedSync(always: SyncResponse(body: document))
        try await company.fetch()
        #expect(company[API.Company.staff].pluck("firstName") == ["Ada"])
        #expect(company.resourceMeta == ["rank": 3])
        #expect(company.resourceLinks?["self"] == "/companies/1")
    }

    @Test func aDocumentWithoutDataIsUnmappable() async throws {
        let company = API.Company(["id": 1])
        company.sync = ScriptedSync(always: SyncResponse(body: ["meta": ["x": 1]]))
        await #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "data",
                reason: #"a JSON:API document has its resource under "data""#
            )
        ) {
            try await company.fetch()
        }
        #expect(company.attributes == ["id": 1])
    }
}
