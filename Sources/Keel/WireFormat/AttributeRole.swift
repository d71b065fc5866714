/// Which way an attribute travels between the app and the server (NSRails' `-r`, `-s` and
/// local properties).
///
/// Roles are keyed by app name in ``WireFormat/roles``; an attribute without one is sent and
/// received.
///
/// ```swift
/// var format = WireFormat.rails
/// format.roles["password"] = .sendOnly
/// format.roles["isExpanded"] = .localOnly
/// ```
public enum AttributeRole: Sendable, Hashable {
    /// Taken from the server, never sent (`id`, `created_at`, a computed field).
    case readOnly
    /// Sent, never taken from a response (a password).
    case sendOnly
    /// Never sent, and never overwritten by a response (UI state kept on the model).
    case localOnly
    /// Sent with every write, a PATCH of other attributes included (Drupal's `type`).
    case alwaysSent
    /// A file (Django REST framework's `FileField`, Rails' `has_one_attached`): sent only as a
    /// file part of ``Model/save(_:files:wait:patch:options:)``, never as a JSON value or a
    /// form field, and taken from responses (where the server puts the file's URL).
    ///
    /// ```swift
    /// var format = WireFormat.djangoREST
    /// format.roles["document"] = .file
    /// ```
    case file

    /// Whether the attribute goes into request bodies (a file only as a file part).
    var isSent: Bool { self != .readOnly && self != .localOnly && self != .file }

    /// Whether a response sets the attribute.
    var isReceived: Bool { self != .sendOnly && self != .localOnly }
}
