import Testing

@testable import Keel

/// A model keeps one reference to what builds its related models (``RelatedModelBuilder``):
/// the factory of the options it was built with, shared by every model built with them, or
/// the anchor of the identity map that built it, which carries the map's factory.
struct RelatedModelBuilderTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var relations: [any Relation] { [author] }
    }

    final class Shelf: Model {
        static let books = HasMany<Author>("books")
        override class var relations: [any Relation] { [books] }
    }

    @Test func modelsBuiltWithTheSameOptionsShareOneBuilder() throws {
        var built: [Int] = []
        var options = ChangeOptions()
        options.relatedModelFactory = { type, _, attributes, options in
            built.append(attributes["id"]?.intValue ?? -1)
            return type.init(attributes, options: options)
        }
        let first = Post(["id": 1, "author": ["id": 7]], options: options)
        let second = Post(["id": 2, "author": ["id": 8]], options: options)
        let builder = try #require(first.storedExtras?.relatedModelBuilder)
        #expect(second.storedExtras?.relatedModelBuilder === builder)
        #expect(builder.map == nil)
        #expect(built == [7, 8])
        // A later merge builds through the factory the model kept.
        second.set(["author": ["id": 9]])
        #expect(built == [7, 8, 9])
        #expect(second[Post.author]?.id == 9)
    }

    @Test func aModelAMapBuiltHoldsItsAnchorWhichBuildsThroughTheMap() throws {
        let map = IdentityMap()
        let post = map.model(Post.self, collection: "/posts", attributes: ["id": 1, "author": ["id": 7]])
        let other = map.model(Post.self, collection: "/posts", attributes: ["id": 2, "author": ["id": 7]])
        let builder = try #require(post.storedExtras?.relatedModelBuilder)
        #expect(builder is IdentityMapAnchor)
        #expect(builder.map === map)
        #expect(other.storedExtras?.relatedModelBuilder === builder)
        // The anchor's factory is the map's: it hands back the map's one instance of a record.
        let author = builder.factory(Author.self, "/authors", ["id": 7], ChangeOptions())
        #expect(author === post[Post.author])
    }

    @Test func aHasManyOfAModelAMapBuiltBuildsItsChildrenThroughTheMap() throws {
        let map = IdentityMap()
        let shelf = map.model(Shelf.self, collection: "/shelves", attributes: ["id": 1, "books": [["id": 3]]])
        let books = shelf[Shelf.books]
        #expect(books.models.count == 1)
        #expect(map.existing(Author.self, id: 3, in: "/authors") === books.models.first)
        books.add(["id": 4] as Attributes)
        #expect(map.existing(Author.self, id: 4, in: "/authors") === books.models.last)
    }
}
