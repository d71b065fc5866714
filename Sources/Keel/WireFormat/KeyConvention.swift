/// How attribute names are spelled on the wire, compared with the app.
///
/// ```swift
/// KeyConvention.snakeCase.wireName(for: "dueAt")  // "due_at"
/// KeyConvention.snakeCase.appName(for: "due_at")  // "dueAt"
/// ```
public enum KeyConvention: Sendable, Hashable {
    /// The same names in the app and on the wire (Backbone's plain format).
    case unchanged
    /// camelCase in the app, snake_case on the wire (Rails, Django REST framework, Drupal),
    /// with the rules of Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`:
    /// `dueAt` ↔ `due_at`, `avatarURL` → `avatar_url` (which reads back as `avatarUrl`).
    case snakeCase
    /// camelCase in the app, dasherized on the wire (ActiveModelSerializers' JSON:API adapter,
    /// Ember Data): `createdAt` ↔ `created-at`, with the word breaks of ``snakeCase``.
    ///
    /// ```swift
    /// KeyConvention.dasherized.wireName(for: "createdAt")  // "created-at"
    /// ```
    case dasherized

    /// The wire spelling of an app name.
    ///
    /// ```swift
    /// KeyConvention.snakeCase.wireName(for: "createdAt")  // "created_at"
    /// ```
    ///
    /// - Parameter appName: The name the app uses.
    /// - Returns: The name sent to the server.
    public func wireName(for appName: String) -> String {
        switch self {
        case .unchanged: appName
        case .snakeCase: JSONKeyConversion.snakeCase(appName)
        case .dasherized: JSONKeyConversion.snakeCase(appName).replacing("_", with: "-")
        }
    }

    /// The app spelling of a wire name.
    ///
    /// ```swift
    /// KeyConvention.snakeCase.appName(for: "created_at")  // "createdAt"
    /// ```
    ///
    /// - Parameter wireName: The name the server uses.
    /// - Returns: The name the app sees.
    public func appName(for wireName: String) -> String {
        switch self {
        case .unchanged: wireName
        case .snakeCase: JSONKeyConversion.camelCase(wireName)
        case .dasherized: JSONKeyConversion.camelCase(wireName.replacing("-", with: "_"))
        }
    }
}
