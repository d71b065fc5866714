import Keel
import Testing

/// A model the identity map is building is registered under its record's id before it builds
/// its related records, from the collection, id and key its build was asked for (lent to the
/// pending build while the initializer runs): nested builds each register under their own,
/// and a `parse` that gives the model another id registers it under that one.
@MainActor
struct IdentityMapPendingBuildTests {
    /// A person with an employer: a class with relations, so that building one nests the build
    /// of its company inside the build of whatever links to it.
    final class Person: Model {
        static let employer = BelongsTo<Company>("employer", foreignKey: "employerId")
        override class var urlRoot: String? { "/people" }
        override class var relations: [any Relation] { [employer] }
    }

    /// A company with a founder, who links back to the company being built.
    final class Company: Model {
        static let founder = BelongsTo<Person>("founder", foreignKey: "founderId")
        override class var urlRoot: String? { "/companies" }
        override class var relations: [any Relation] { [founder] }
    }

    /// A post whose server records name its id `post_id`: its `parse` gives the model an id
    /// its record did not have under `id`.
    final class RenamedPost: Model {
        static let author = BelongsTo<Person>("author", foreignKey: "authorId")
        override class var urlRoot: String? { "/posts" }
        override class var relations: [any Relation] { [author] }
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            guard var attributes = response.objectValue else { return nil }
            if let id = attributes.removeValue(forKey: "post_id") { attributes["id"] = id }
            return attributes
        }
    }

    /// A post whose `parse` rebuilds its text id (an equal string in storage of its own) or,
    /// for `"none"`, gives it a `null` one.
    final class RebuiltIDPost: Model {
        static let author = BelongsTo<Person>("author", foreignKey: "authorId")
        override class var urlRoot: String? { "/posts" }
        override class var relations: [any Relation] { [author] }
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            guard var attributes = response.objectValue, let id = attributes["id"]?.stringValue else { return nil }
            attributes["id"] = id == "none" ? .null : .string(String(id.reversed().reversed()))
            return attributes
        }
    }

    /// The built model's id is compared with its record's by their bits first: an id equal to
    /// the record's in other storage keeps the model's one entry, and a `null` one leaves none.
    @Test func aModelWhoseIDEqualsItsRecordsInOtherBitsOrIsNullHasTheRightEntries() throws {
        let map = IdentityMap()
        let longID = "a text id longer than fifteen bytes"
        let post = map.model(
            RebuiltIDPost.self,
            collection: "/posts",
            attributes: ["id": .string(longID), "authorId": "p3", "author": ["id": "p3"]],
            options: ChangeOptions(parse: true)
        )
        #expect(post.id == .string(longID))
        #expect(map.existing(RebuiltIDPost.self, id: .string(longID), in: "/posts") === post)
        #expect(map.count == 2)
        let unnamed = map.model(
            RebuiltIDPost.self,
            collection: "/posts",
            attributes: ["id": "none", "authorId": "p3", "author": ["id": "p3"]],
            options: ChangeOptions(parse: true)
        )
        #expect(unnamed !== post)
        #expect(map.existing(RebuiltIDPost.self, id: "none", in: "/posts") == nil)
        #expect(map.count == 2)
        #expect(unnamed[RebuiltIDPost.author] === post[RebuiltIDPost.author])
    }

    @Test func nestedBuildsEachRegisterUnderTheirOwnCollectionAndID() throws {
        let map = IdentityMap()
        let ada = map.model(
            Person.self,
            collection: "/people",
            attributes: [
                "id": "p1", "employerId": 7,
                "employer": ["id": 7, "founderId": "p1", "founder": ["id": "p1"]],
            ]
        )
        let company = try #require(ada[Person.employer])
        #expect(map.existing(Person.self, id: "p1", in: "/people") === ada)
        #expect(map.existing(Company.self, id: 7, in: "/companies") === company)
        // The founder's record links back to the person being built: the same instance.
        #expect(company[Company.founder] === ada)
        #expect(map.count == 2)
    }

    @Test func aParseThatGivesAnotherIDRegistersTheModelUnderIt() throws {
        let map = IdentityMap()
        let post = map.model(
            RenamedPost.self,
            collection: "/posts",
            attributes: ["post_id": 12, "authorId": "p2", "author": ["id": "p2"]],
            options: ChangeOptions(parse: true)
        )
        #expect(post.id == 12)
        #expect(map.existing(RenamedPost.self, id: 12, in: "/posts") === post)
        let author = try #require(post[RenamedPost.author])
        #expect(map.existing(Person.self, id: "p2", in: "/people") === author)
        // Built again from the same record, the post is found under the id it was registered by.
        let again = map.model(
            RenamedPost.self,
            collection: "/posts",
            attributes: ["id": 12, "title": "x"]
        )
        #expect(again === post)
        #expect(post["title"] == "x")
    }
}
