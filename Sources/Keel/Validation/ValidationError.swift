/// Validation errors: messages about the whole model and messages per attribute.
///
/// ``Model/validate(_:options:)`` returns one when a change is not acceptable; a server's
/// validation response (Rails' 422 `{"title": ["can't be blank"]}`, or the 400
/// `{"field": ["msg"]}` of other frameworks) decodes into the same shape, so `error` and
/// `invalid` listeners handle local and server validation alike.
///
/// ```swift
/// override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
///     var errors = ValidationError()
///     if (attributes["title"]?.stringValue ?? "").count < 5 {
///         errors.add("is too short", for: "title")
///     }
///     return errors.isEmpty ? nil : errors
/// }
/// ```
public struct ValidationError: Error, Sendable, Hashable {
    /// Messages about the model as a whole (ISModel's errors array; Rails' `base`).
    public var messages: [String]
    /// Messages per attribute, such as `["title": ["is too short"]]`.
    public var attributes: [String: [String]]

    /// Creates validation errors.
    ///
    /// ```swift
    /// let error = ValidationError(messages: ["Not allowed"], attributes: ["title": ["is too short"]])
    /// ```
    ///
    /// - Parameters:
    ///   - messages: Model-wide messages.
    ///   - attributes: Messages per attribute.
    public init(messages: [String], attributes: [String: [String]] = [:]) {
        self.messages = messages
        self.attributes = attributes
    }

    /// Creates errors without any message, to add messages to.
    ///
    /// ```swift
    /// var errors = ValidationError()
    /// errors.add("can't be blank", for: "title")
    /// ```
    public init() {
        self.init(messages: [])
    }

    /// Creates a model-wide error with one message.
    ///
    /// ```swift
    /// let error = ValidationError("Title cannot be less than 5 characters")
    /// ```
    ///
    /// - Parameter message: The message.
    public init(_ message: String) {
        self.init(messages: [message])
    }

    /// Whether there is no message at all.
    ///
    /// ```swift
    /// ValidationError().isEmpty  // true
    /// ```
    public var isEmpty: Bool { messages.isEmpty && attributes.values.allSatisfy(\.isEmpty) }

    /// The messages for one attribute.
    ///
    /// ```swift
    /// error["title"]  // ["is too short"]
    /// ```
    public subscript(attribute: String) -> [String] {
        get { attributes[attribute] ?? [] }
        set { attributes[attribute] = newValue.isEmpty ? nil : newValue }
    }

    /// Adds a message for an attribute, or for the whole model when `attribute` is `nil`.
    ///
    /// ```swift
    /// var errors = ValidationError()
    /// errors.add("can't be blank", for: "title")
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - attribute: The attribute it is about, or `nil` for the model.
    public mutating func add(_ message: String, for attribute: String? = nil) {
        if let attribute {
            attributes[attribute, default: []].append(message)
        } else {
            messages.append(message)
        }
    }
}

extension ValidationError: ExpressibleByDictionaryLiteral {
    /// Creates per-attribute errors from a literal.
    ///
    /// ```swift
    /// let error: ValidationError = ["title": ["is too short"]]
    /// ```
    public init(dictionaryLiteral elements: (String, [String])...) {
        self.init(messages: [], attributes: Dictionary(elements, uniquingKeysWith: +))
    }
}

extension ValidationError: CustomStringConvertible {
    /// The full messages joined by semicolons.
    ///
    /// ```swift
    /// print(ValidationError("Nope"))  // Nope
    /// let late: ValidationError = ["dueDate": ["is in the past"]]
    /// print(late)  // Due date is in the past
    /// ```
    public var description: String { fullMessages.joined(separator: "; ") }
}

extension ValidationError {
    /// Decodes a server's validation response body.
    ///
    /// Understands `{"title": ["can't be blank"]}` (Rails 422, Django REST framework 400),
    /// the same wrapped as `{"errors": {...}}` (or Drupal 7's `{"form_errors": {...}}`),
    /// `{"errors": ["message", ...]}`, a single `{"error": "message"}`, Drupal's
    /// `{"message": "Unprocessable Entity: validation failed.\ntitle: …"}` (one
    /// `path: message` line per field), string values instead of arrays, and `base` /
    /// `non_field_errors` / `__all__` as model-wide messages. Nested errors keep the path
    /// to their attribute: Django REST framework's `{"author": {"name": […]}}` is
    /// `author.name`, its `{"invites": [{}, {"email": […]}]}` is `invites[1].email`, and
    /// Rails' `invites.email` stays as it is.
    ///
    /// ```swift
    /// let error = ValidationError(json: ["title": ["can't be blank"]])
    /// error?["title"]  // ["can't be blank"]
    /// ```
    ///
    /// - Parameter json: The response body.
    /// - Returns: `nil` when the body has none of these shapes or no message, and for Django
    ///   REST framework's `{"detail": "…"}`, which reports a bad request rather than invalid
    ///   fields.
    public init?(json: JSONValue) {
        var result = ValidationError()
        switch json {
        case .object(let object):
            // A JSON:API error document (error objects under "errors", maybe beside "jsonapi"
            // and "meta"): the JSON:API wire formats read it through `source.pointer`.
            if let list = object["errors"]?.arrayValue, !list.isEmpty, list.allSatisfy({ $0.objectValue != nil }) {
                return nil
            }
            if let errors = object["errors"] ?? object["form_errors"], object.count == 1 || errors.objectValue != nil {
                guard let nested = ValidationError(json: errors) else { return nil }
                result = nested
            } else if object.count == 1, let message = object["error"]?.stringValue {
                result.messages = [message]
            } else if object.count == 1, let message = object["message"]?.stringValue {
                // Drupal's 422: "Unprocessable Entity: validation failed.\ntitle: …\n".
                guard let drupal = Self.drupalErrors(message) else { return nil }
                result = drupal
            } else if object.count == 1, object["detail"] != nil {
                // Django REST framework's shape for errors that are not about fields.
                return nil
            } else {
                for (key, value) in object {
                    guard Self.collect(value, at: Self.isModelWide(key) ? "" : key, into: &result) else { return nil }
                }
            }
        case .array(let values):
            result.messages = values.flatMap(Self.strings)
        case .string(let message):
            result.messages = [message]
        default:
            return nil
        }
        guard !result.isEmpty else { return nil }
        self = result
    }

    /// The errors of Drupal's 422 message: one `path: message` line per violation after the
    /// first line; `nil` for any other message.
    private static func drupalErrors(_ message: String) -> ValidationError? {
        let lines = message.split(separator: "\n")
        guard let first = lines.first, first.hasPrefix("Unprocessable Entity: validation failed") else { return nil }
        var result = ValidationError()
        for line in lines.dropFirst() {
            if let colon = line.firstRange(of: ": "), !line[..<colon.lowerBound].contains(" ") {
                result.add(String(line[colon.upperBound...]), for: String(line[..<colon.lowerBound]))
            } else {
                result.add(String(line))
            }
        }
        return result
    }

    /// Whether a key holds messages about the whole record rather than one attribute.
    static func isModelWide(_ key: String) -> Bool {
        key == "base" || key == "non_field_errors" || key == "__all__"
    }

    /// Adds the messages of `value` under `path` (model-wide when empty).
    ///
    /// Nested errors get paths as the servers write them: Django REST framework's
    /// `{"author": {"name": […]}}` becomes `author.name`, and its
    /// `{"invites": [{}, {"email": […]}]}` `invites[1].email`; Rails' `invites.email` keys stay as
    /// they are.
    ///
    /// - Returns: `false` when a value is not made of messages.
    private static func collect(_ value: JSONValue, at path: String, into result: inout ValidationError) -> Bool {
        func add(_ message: String) {
            if path.isEmpty {
                result.messages.append(message)
            } else {
                result.attributes[path, default: []].append(message)
            }
        }
        switch value {
        case .string(let message):
            add(message)
            return true
        case .array(let values):
            for (index, element) in values.enumerated() {
                switch element {
                case .string(let message): add(message)
                case .object, .array:
                    guard collect(element, at: "\(path)[\(index)]", into: &result) else { return false }
                default: return false
                }
            }
            return true
        case .object(let object):
            for (key, nested) in object {
                let nestedPath = isModelWide(key) ? path : path.isEmpty ? key : "\(path).\(key)"
                guard collect(nested, at: nestedPath, into: &result) else { return false }
            }
            return true
        default:
            return false
        }
    }

    private static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let string): return [string]
        case .array(let values): return values.compactMap(\.stringValue)
        default: return []
        }
    }
}
