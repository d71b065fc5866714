import Testing

@testable import Keel

/// Root keys are named after the model class with Rails' inflection for the common cases.
struct InflectionTests {
    @Test(arguments: [
        ("note", "notes"), ("person", "people"), ("category", "categories"), ("todo_item", "todo_items"),
        ("sales_person", "sales_people"), ("box", "boxes"), ("address", "addresses"), ("day", "days"),
        ("status", "statuses"), ("sheep", "sheep"), ("news", "news"), ("mouse", "mice"), ("knife", "knives"),
        ("child", "children"), ("church", "churches"), ("wish", "wishes"), ("quiz", "quizzes"),
        ("analysis", "analyses"), ("soliloquy", "soliloquies"), ("key", "keys"), ("campus", "campuses"),
    ])
    func pluralsFollowRails(singular: String, plural: String) {
        #expect(Inflection.pluralize(singular) == plural)
    }

    @Test func resourceNamesAreTheClassNameInSnakeCase() {
        #expect(Inflection.resourceName(of: Model.self) == "model")
        #expect(Inflection.resourceName(of: Rails.TodoItem.self) == "todo_item")
        #expect(Inflection.resourceName(of: Collection<Model>.self) == "collection")
    }

    private enum Rails {
        final class TodoItem: Model {}
    }
}
