/// The HTTP verb of a save that is not a patch.
///
/// ```swift
/// var format = WireFormat.plain
/// format.updateVerb = .patch   // full saves go as PATCH, as Rails' update route expects
/// ```
public enum UpdateVerb: Sendable, Hashable {
    /// `PUT`, with the whole record (Backbone, Django REST framework, Drupal 7's Services).
    case put
    /// `PATCH`, with the whole record (Rails' update route, Drupal 8 and later, which has
    /// no `PUT`).
    case patch
}
