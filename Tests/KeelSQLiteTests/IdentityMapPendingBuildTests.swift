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
