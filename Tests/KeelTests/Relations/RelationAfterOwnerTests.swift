import Keel
import Testing

/// A relation's collection kept by the app after its owner was released (a view that holds
/// `article[Article.comments]` while the identity map lets the article go) keeps working:
/// what it builds is built through the map without the owner.
struct RelationAfterOwnerTests {
    final class Comment: Model {
        override class var urlRoot: String? { "/comments" }
    }

    final class Article: Model {
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/articles" }
        override class var relations: [any Relation] { [comments] }
    }

    @Test func aHasManyCollectionAddsThroughTheMapAfterItsOwnerIsReleased() throws {
        let map = IdentityMap()
        var articles: Collection<Article>? = Collection(
            factory: map.factory(for: Article.self, collection: "/articles")
        )
        articles?.add(["id": 1, "title": "Engines"])
        let comments = try #require(articles?.first?[Article.comments])
        articles = nil
        #expect(map.existing(Article.self, id: 1, in: "/articles") == nil)
        comments.add(["id": 7, "body": "First"])
        #expect(comments.map { $0["body"] } == ["First"])
        #expect(map.existing(Comment.self, id: 7, in: "/comments") === comments.first)
    }
}
