import Foundation
import Keel
import Testing

private final class Article: Model {
    static let title = AttributeKey<String>("title")
    static let views = AttributeKey<Int>("views")
    static let rating = AttributeKey<Double>("rating")
    static let tags = AttributeKey<[String]>("tags")
    static let published = AttributeKey<Bool>("published")

    override class var defaults: Attributes { ["title": "", "views": 0] }

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        (attributes["views"]?.intValue ?? 0) < 0 ? ["views": ["must not be negative"]] : nil
    }
}

private struct ArticleFields: Codable, Equatable {
    var title: String
    var views: Int
    var publishedAt: Date?
}

struct ModelTypedAccessTests {
    @Test func typedKeysReadAndWriteSwiftValues() {
        let article = Article(["tags": ["swift", "keel"], "rating": 4])
        #expect(article[Article.title] == "")
        #expect(article[Article.tags] == ["swift", "keel"])
        #expect(article[Article.rating] == 4.0)
        article[Article.title] = "Hello"
        article[Article.published] = true
        #expect(article["title"] == "Hello")
        #expect(article["published"] == true)
    }

    @Test func typedReadOfAnotherShapeIsNil() {
        let article = Article(["title": 42, "views": 1.5])
        #expect(article[Article.title] == nil)
        #expect(article[Article.views] == nil)
    }

    @Test func assigningNilThroughATypedKeyUnsets() {
        let article = Article(["published": true])
        article[Article.published] = nil
        #expect(!article.attributes.contains("published"))
    }

    @Test func typedSetFiresEventsAndValidates() {
        let article = Article()
        var names: [String] = []
        article.on("all") { names.append($0.name) }
        #expect(article.set(Article.views, 3))
        #expect(names == ["change:views", "change"])
        #expect(!article.set(Article.views, -1))
        #expect(article[Article.views] == 3)
        #expect(article.validationError?["views"] == ["must not be negative"])
    }

    @Test func decodeReadsTheAttributesAsACodableValue() throws {
        let article = Article(["title": "Hi", "views": 7, "publishedAt": "2026-11-21T10:00:00Z"])
        let fields = try article.decode(ArticleFields.self)
        #expect(fields.title == "Hi")
        #expect(fields.views == 7)
        #expect(fields.publishedAt == Date(timeIntervalSince1970: 1_795_255_200))
    }

    @Test func decodeReportsAMissingKey() {
        let article = Model(["title": "Hi"])
        #expect(throws: DecodingError.self) { try article.decode(ArticleFields.self) }
    }

    @Test func setEncodingMergesTheEncodedAttributesWithEvents() throws {
        let article = Article(["extra": 1])
        var changed: [String] = []
        article.on("all") { changed.append($0.name) }
        try article.set(encoding: ArticleFields(title: "Hi", views: 2, publishedAt: nil))
        #expect(article["title"] == "Hi")
        #expect(article["views"] == 2)
        #expect(article["extra"] == 1)
        #expect(changed == ["change:title", "change:views", "change"])
    }

    @Test func setEncodingIsValidated() throws {
        let article = Article()
        let accepted = try article.set(encoding: ArticleFields(title: "Hi", views: -5, publishedAt: nil))
        #expect(!accepted)
        #expect(article["views"] == 0)
    }

    @Test func setEncodingRejectsValuesThatAreNotObjects() {
        let article = Article()
        #expect(throws: EncodingError.self) { try article.set(encoding: [1, 2, 3]) }
    }
}
