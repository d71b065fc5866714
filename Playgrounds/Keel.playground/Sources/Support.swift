import Keel

/// The note model every page uses.
public final class Note: Model {
    override public class var defaults: Attributes { ["title": "", "done": false] }
    override public class var urlRoot: String? { "/notes" }

    override public func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        let title = attributes["title"]?.stringValue ?? ""
        return title.count > 40 ? ["title": ["is too long (maximum is 40 characters)"]] : nil
    }
}
