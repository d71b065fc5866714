import Foundation
import Keel
import Testing

/// What the JSON:API reader must keep while it reads a document cheaply: an error names the
/// exact place in the document, a cycle ends at an id only on the path being read, a repeated
/// resource keeps the fields of both copies, and a sparse included resource keeps what it
/// does not carry.
@MainActor
struct JSONAPIReaderPlacesTests {
    typealias Person = JSONAPIWireFormatTests.API.Person
    typealias Company = JSONAPIWireFormatTests.API.Company

    /// The key path of the unmappable response a collection of `M` gets from `document`.
    private func failingKeyPath<M: Model>(_: M.Type, reading document: JSONValue) async -> String? {
        let collection = Collection<M>(url: "/list", sync: ScriptedSync(always: SyncResponse(body: document)))
        let error = await #expect(throws: SyncError.self) { _ = try await collection.fetch() }
        guard case .unmappableResponse(let keyPath, _) = error else {
            Issue.record("expected an unmappable response, got \(String(describing: error))")
            return nil
        }
        #expect(collection.length == 0)
        return keyPath
    }

    private nonisolated static func person(_ id: Int, employer: JSONValue? = nil) -> JSONValue {
        var resource: JSONObject = [
            "type": "people", "id": .string(String(id)), "attributes": ["first-name": "P\(id)"],
        ]
        if let employer { resource["relationships"] = ["employer": ["data": employer]] }
        return .object(resource)
    }

    @Test func aBadLinkageIsNamedByItsResourceAndRelationship() async {
        let people: [JSONValue] = (0..<5).map { Self.person($0, employer: ["type": "companies", "id": "1"]) }
        var broken = people
        broken[3] = Self.person(3, employer: 7)
        #expect(
            await failingKeyPath(Person.self, reading: ["data": .array(broken)])
                == "data[3].relationships.employer.data"
        )
    }

    @Test func aBadLinkageInsideAnIncludedResourceIsNamedFromThePrimaryData() async {
        let document: JSONValue = [
            "data": [
                ["type": "companies", "id": "1"],
                [
                    "type": "companies", "id": "2",
                    "relationships": [
                        "staff": ["data": [["type": "people", "id": "5"], ["type": "people", "id": "6"]]]
                    ],
                ],
            ],
            "included": [Self.person(5), Self.person(6, employer: ["type": "companies"])],
        ]
        #expect(
            await failingKeyPath(Company.self, reading: document)
                == "data[1].relationships.staff.data[1].relationships.employer.data"
        )
    }

    @Test func attributesThatAreNoObjectAreNamedByTheirResource() async {
        let document: JSONValue = [
            "data": [Self.person(0), Self.person(1), ["type": "people", "id": "2", "attributes": ["x"]]]
        ]
        #expect(await failingKeyPath(Person.self, reading: document) == "data[2].attributes")
    }

    @Test func aToManyLinkageThatIsNoListIsNamedByItsRelationship() async {
        let document: JSONValue = [
            "data": [
                ["type": "companies", "id": "1"],
                ["type": "companies", "id": "2", "relationships": ["staff": ["data": ["type": "people", "id": "5"]]]],
            ]
        ]
        #expect(await failingKeyPath(Company.self, reading: document) == "data[1].relationships.staff.data")
    }

    @Test func aLinkedResourcesAttributesAreNamedThroughTheLinkageThatReachedIt() async {
        let document: JSONValue = [
            "data": [
                Self.person(0, employer: ["type": "companies", "id": "1"]),
                Self.person(1, employer: ["type": "companies", "id": "2"]),
            ],
            "included": [
                ["type": "companies", "id": "1", "attributes": ["name": "Acme"]],
                ["type": "companies", "id": "2", "attributes": "Initech"],
            ],
        ]
        #expect(
            await failingKeyPath(Person.self, reading: document)
                == "data[1].relationships.employer.data.attributes"
        )
    }

    @Test func aSingleResourceDocumentNamesItsDataAndItsLinkage() async throws {
        let documents: [(JSONValue, String)] = [
            (["data": ["type": "people", "id": "1", "attributes": [1]]], "data.attributes"),
            (["data": ["type": "people", "id": 1.5]], "data.id"),
            (
                [
                    "data": ["type": "people", "id": "1", "relationships": ["employer": ["data": "companies/1"]]]
                ],
                "data.relationships.employer.data"
            ),
        ]
        for (document, expected) in documents {
            let person = Person(["id": 1])
            person.sync = ScriptedSync(always: SyncResponse(body: document))
            let error = await #expect(throws: SyncError.self) { try await person.fetch() }
            guard case .unmappableResponse(let keyPath, _) = error else {
                Issue.record("expected an unmappable response, got \(String(describing: error))")
                continue
            }
            #expect(keyPath == expected)
            #expect(person.attributes == ["id": 1])
        }
    }

    @Test func aCycleEndsAtAnIDOnlyOnThePathBeingRead() throws {
        let company: JSONValue = [
            "type": "companies", "id": "1", "attributes": ["name": "Acme"],
            "relationships": [
                "staff": ["data": [["type": "people", "id": "5"], ["type": "people", "id": "6"]]]
            ],
        ]
        let document: JSONValue = [
            "data": [
                Self.person(5, employer: ["type": "companies", "id": "1"]),
                Self.person(6, employer: ["type": "companies", "id": "1"]),
            ],
            "included": [company],
        ]
        let people = Collection<Person>()
        try people.reset(parsing: document)

        let ada = try #require(people.first?[Person.employer])
        #expect(ada["name"] == "Acme")
        #expect(ada[Company.staff].first?.attributes == ["id": 5])
        #expect(ada[Company.staff].last?["firstName"] == "P6")
        #expect(ada[Company.staff].last?[Person.employer]?.attributes == ["id": 1])

        let grace = try #require(people.last?[Person.employer])
        #expect(grace[Company.staff].first?["firstName"] == "P5")
        #expect(grace[Company.staff].first?[Person.employer]?.attributes == ["id": 1])
        #expect(grace[Company.staff].last?.attributes == ["id": 6])
    }

    @Test func aRepeatedSparseIncludedResourceMergesBothCopiesAndKeepsWhatNeitherCarries() throws {
        let map = IdentityMap()
        try map.registerResourceType(for: Person.self, collection: "/people")
        let live = map.model(
            Person.self,
            collection: "/people",
            attributes: ["id": 6, "firstName": "G", "lastName": "H", "email": "grace@example.com"]
        )
        let document: JSONValue = [
            "data": [],
            "included": [
                ["type": "people", "id": "6", "attributes": ["first-name": "Grace"]],
                ["type": "people", "id": "7", "attributes": ["first-name": "Alan"]],
                ["type": "people", "id": "6", "attributes": ["last-name": "Hopper"]],
            ],
        ]

        let merged = try map.mergeIncluded(from: document)

        #expect(merged.count == 3)
        #expect(merged.first === live)
        #expect(merged.last === live)
        #expect(live.attributes == ["id": 6, "firstName": "Grace", "lastName": "Hopper", "email": "grace@example.com"])
        let alan = try #require(map.existing(Person.self, id: 7, in: "/people"))
        #expect(alan === merged[1])
        #expect(alan["firstName"] == "Alan")
        #expect(alan.isNew == false)
        #expect(alan.unsavedChanges == nil)
    }
}
