import Foundation
import Keel

/// One to-do item: a title and whether it is done.
///
/// Its attributes are `title` (a non-blank string of at most ``maximumTitleLength``
/// characters) and `done` (a Boolean), plus the `id` the backend assigns.
final class Todo: Model {
    /// The longest title accepted, in characters.
    static let maximumTitleLength = 200

    override class var defaults: Attributes { ["title": "", "done": false] }

    override class var urlRoot: String? { "/todos" }

    /// Rejects a blank or over-long title and a `done` that is not a Boolean, with messages
    /// shaped like the server's (`["title": ["can't be blank"]]`).
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        var errors = ValidationError(messages: [])
        let title = attributes["title"]?.stringValue ?? ""
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            errors.add("can't be blank", for: "title")
        } else if title.count > Self.maximumTitleLength {
            errors.add("is too long (maximum is \(Self.maximumTitleLength) characters)", for: "title")
        }
        if let done = attributes["done"], done.boolValue == nil {
            errors.add("must be true or false", for: "done")
        }
        return errors.isEmpty ? nil : errors
    }

    /// The title; `""` when missing.
    var title: String { self["title"]?.stringValue ?? "" }

    /// Whether the todo is completed.
    var isDone: Bool { self["done"]?.boolValue ?? false }

    /// What is wrong with a todo edited by hand outside `todos`: a title that is not text,
    /// a `done` that is not true or false. Empty for a todo `todos` wrote.
    var defects: [String] {
        var found: [String] = []
        // JSON text, so that a string where a Boolean belongs shows its quotes.
        if let title = self["title"], title.stringValue == nil {
            found.append("its title is not text: \(title.debugDescription)")
        }
        if let done = self["done"], done.boolValue == nil {
            found.append("its done is not true or false: \(done.debugDescription)")
        }
        return found
    }

    /// The title as the user typed it, without surrounding whitespace.
    static func cleanTitle(_ title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
