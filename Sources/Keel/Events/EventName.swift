/// The name of an event, as a typed value: the compiler catches a misspelt `.chnage`.
///
/// Every method that takes event names as a string — ``EventEmitter/on(_:owner:_:)-(String,_,_)``,
/// `once`, `off`, `trigger`, `listenTo`, `listenToOnce`, `stopListening` and
/// ``EventEmitter/events(_:)-(String)`` — also takes an `EventName`. Backbone's built-in events are
/// static members, and `change(_:)` names the change of one attribute, by name or by its
/// ``AttributeKey``:
///
/// ```swift
/// note.on(.change(Note.title)) { event in print("title is now", event.value ?? nil) }
/// notes.on([.add, .remove]) { event in print(event.name) }
/// for await event in note.events(.sync) { print("saved", event.response?.status ?? 0) }
/// ```
///
/// Name your own events as static members too; a string literal is an `EventName`:
///
/// ```swift
/// extension EventName {
///     static let archived: EventName = "archived"
/// }
/// note.trigger(.archived)
/// ```
///
/// An array of names (`[.add, .remove]`) is one value that names each of them, like the
/// space-separated string `"add remove"`.
public struct EventName: Hashable, Sendable {
    /// The name as the string API spells it: one name, or several separated by spaces.
    ///
    /// ```swift
    /// EventName.change(Note.title).rawValue  // "change:title"
    /// ```
    public let rawValue: String

    /// Creates a name from its string form.
    ///
    /// ```swift
    /// let name = EventName("change:title")
    /// ```
    ///
    /// - Parameter rawValue: One name, or several separated by spaces.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether an event has this name (for a value naming several events: one of them).
    ///
    /// ```swift
    /// note.on(.all) { event in
    ///     if EventName.change.matches(event) { print("changed") }
    /// }
    /// ```
    ///
    /// - Parameter event: The event to test.
    /// - Returns: `true` when ``Event/name`` is this name or one of these names.
    public func matches(_ event: Event) -> Bool {
        names.contains(event.name)
    }

    /// The single names, split as the emitter splits a string (at spaces, tabs and newlines).
    var names: [String] {
        rawValue.utf8.split { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            .map { String(decoding: $0, as: UTF8.self) }
    }
}

// MARK: - Literals

extension EventName: ExpressibleByStringLiteral {
    /// Creates a name from a string literal.
    ///
    /// ```swift
    /// let name: EventName = "archived"
    /// ```
    ///
    /// - Parameter value: One name, or several separated by spaces.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension EventName: ExpressibleByArrayLiteral {
    /// Creates one value that names each of the given events.
    ///
    /// ```swift
    /// let membership: EventName = [.add, .remove]  // "add remove"
    /// ```
    ///
    /// - Parameter elements: The names.
    public init(arrayLiteral elements: EventName...) {
        self.init(elements.map(\.rawValue).joined(separator: " "))
    }
}

extension EventName: CustomStringConvertible {
    /// The name as the string API spells it.
    ///
    /// ```swift
    /// print(EventName.change("title"))  // change:title
    /// ```
    public var description: String { rawValue }
}

// MARK: - Backbone's events

extension EventName {
    /// Every event: handlers for `all` run after the specific handlers of each event.
    ///
    /// ```swift
    /// note.on(.all) { event in print(event.name) }
    /// ```
    public static let all: EventName = "all"

    /// A model's attributes changed (after the `change:<attribute>` events), or a model in a
    /// collection did.
    ///
    /// ```swift
    /// note.on(.change) { event in print(event.model?.changedAttributes ?? [:]) }
    /// ```
    public static let change: EventName = "change"

    /// One attribute changed: `change:<attribute>`.
    ///
    /// ```swift
    /// note.on(.change("title")) { event in print(event.value ?? nil) }
    /// ```
    ///
    /// - Parameter attribute: The attribute's name.
    /// - Returns: The name `change:<attribute>`.
    public static func change(_ attribute: String) -> EventName {
        EventName("change:" + attribute)
    }

    /// One attribute changed, named by its typed key: `change:<attribute>`.
    ///
    /// ```swift
    /// note.on(.change(Note.title)) { event in print(event.value ?? nil) }
    /// ```
    ///
    /// - Parameter key: The attribute's key.
    /// - Returns: The name `change:<attribute>`.
    public static func change<Value>(_ key: AttributeKey<Value>) -> EventName {
        change(key.name)
    }

    /// A model's id changed: Backbone's `changeId`.
    ///
    /// ```swift
    /// note.on(.changeID) { event in print(event.previousID ?? nil) }
    /// ```
    public static let changeID: EventName = "changeId"

    /// A model was added to a collection.
    ///
    /// ```swift
    /// notes.on(.add) { event in print(event.model?["title"] ?? nil) }
    /// ```
    public static let add: EventName = "add"

    /// A model was removed from a collection.
    ///
    /// ```swift
    /// notes.on(.remove) { event in print(event.index ?? 0) }
    /// ```
    public static let remove: EventName = "remove"

    /// A collection finished adding, removing and merging models.
    ///
    /// ```swift
    /// notes.on(.update) { event in print(event.changes?.added.count ?? 0) }
    /// ```
    public static let update: EventName = "update"

    /// A collection's models were replaced all at once.
    ///
    /// ```swift
    /// notes.on(.reset) { event in print(event.previousModels?.count ?? 0) }
    /// ```
    public static let reset: EventName = "reset"

    /// A collection was re-sorted.
    ///
    /// ```swift
    /// notes.on(.sort) { _ in print("sorted") }
    /// ```
    public static let sort: EventName = "sort"

    /// A model was destroyed.
    ///
    /// ```swift
    /// note.on(.destroy) { _ in print("gone") }
    /// ```
    public static let destroy: EventName = "destroy"

    /// A request to the backend began.
    ///
    /// ```swift
    /// note.on(.request) { event in print(event.request?.method ?? .read) }
    /// ```
    public static let request: EventName = "request"

    /// A request to the backend succeeded.
    ///
    /// ```swift
    /// note.on(.sync) { event in print(event.response?.status ?? 0) }
    /// ```
    public static let sync: EventName = "sync"

    /// A request to the backend failed, or a change failed validation.
    ///
    /// ```swift
    /// note.on(.error) { event in print(event.error ?? SyncError.cancelled) }
    /// ```
    public static let error: EventName = "error"

    /// A change failed validation.
    ///
    /// ```swift
    /// note.on(.invalid) { event in print(event.validationError?.messages ?? []) }
    /// ```
    public static let invalid: EventName = "invalid"
}
