// MARK: - Full messages

extension ValidationError {
    /// Every message as a sentence, as Rails' `full_messages` writes them: the model-wide
    /// messages as they are, then `"<Attribute name> <message>"` for each attribute, in
    /// attribute-name order. Messages added for the attribute `base` are model-wide, as in
    /// Rails, and come without a name, after ``messages``.
    ///
    /// Attribute names are made readable with ``humanAttributeName(_:)``: `dueDate` and
    /// `due_date` become "Due date", `authorID` and `author_id` "Author". To name an
    /// attribute yourself, use ``fullMessages(attributeNames:)``.
    ///
    /// ```swift
    /// let error = ValidationError(messages: ["Is locked"], attributes: ["dueDate": ["has wrong format"]])
    /// error.fullMessages  // ["Is locked", "Due date has wrong format"]
    /// ```
    public var fullMessages: [String] { fullMessages(attributeNames: [:]) }

    /// Every message as a sentence, with your own names for some attributes.
    ///
    /// Attributes that `attributeNames` leaves out are named with ``humanAttributeName(_:)``,
    /// as in ``fullMessages``. Keep the names where the model's other class-level settings
    /// are, so every screen words them alike:
    ///
    /// ```swift
    /// extension Todo {
    ///     static let attributeNames = ["dueDate": "Deadline"]
    /// }
    ///
    /// let error: ValidationError = ["dueDate": ["has wrong format"], "title": ["can't be blank"]]
    /// error.fullMessages(attributeNames: Todo.attributeNames)
    /// // ["Deadline has wrong format", "Title can't be blank"]
    /// ```
    ///
    /// - Parameter attributeNames: The name to show for an attribute, by attribute key (the
    ///   key as it appears in ``attributes``, such as `dueDate` or `author.name`).
    /// - Returns: The model-wide messages, then one sentence per attribute message.
    /// - Complexity: O(*m* + *k* log *k*) for *m* messages and *k* attributes.
    public func fullMessages(attributeNames: [String: String]) -> [String] {
        messages + (attributes[Self.base] ?? [])
            + attributes.keys.sorted().filter { $0 != Self.base }.flatMap { attribute in
                let name = attributeNames[attribute] ?? Self.humanAttributeName(attribute)
                return (attributes[attribute] ?? []).map { "\(name) \($0)" }
            }
    }

    /// The key Rails uses for messages about the whole record.
    private static let base = "base"

    /// An attribute key as a person reads it, with the rules of Rails' `humanize`.
    ///
    /// The key is split into words at underscores, dots and changes from lowercase to
    /// uppercase letters (a run of capitals is one word: `userURL` is "user url"); the words
    /// are lowercased and joined with spaces; a last word `id` is dropped when there are
    /// others (`author_id` and `authorID` name the author), and the first letter is
    /// capitalized. Rails writes the errors of a nested record with a dot (`invites.email`),
    /// and its `full_messages` turns the dot into a space, as this does.
    ///
    /// ```swift
    /// ValidationError.humanAttributeName("dueDate")        // "Due date"
    /// ValidationError.humanAttributeName("first_name")     // "First name"
    /// ValidationError.humanAttributeName("authorID")       // "Author"
    /// ValidationError.humanAttributeName("invites.email")  // "Invites email"
    /// ```
    ///
    /// - Parameter attribute: The attribute key.
    /// - Returns: The readable name; an empty key gives an empty name.
    public static func humanAttributeName(_ attribute: String) -> String {
        let snakeCase = attribute.split(separator: ".").map { JSONKeyConversion.snakeCase(String($0)) }
        var words = snakeCase.flatMap { $0.split(separator: "_") }.map { $0.lowercased() }
        if words.count > 1, words.last == "id" { words.removeLast() }
        let name = words.joined(separator: " ")
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
