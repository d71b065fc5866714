public import Foundation

/// A ``Collection`` seen without its model type, as events and models refer to it.
///
/// ```swift
/// note.on("add") { event in print("now in", event.collection?.cid ?? "") }
/// if let notes = note.collection as? Collection<Note> { print(notes.count) }
/// ```
public protocol ModelCollection: EventEmitter {
    /// The collection's client id.
    var cid: String { get }
    /// The models, in collection order.
    var allModels: [Model] { get }
    /// The collection's resource path, such as `/notes`; its models' URLs start with it.
    var url: String? { get }
    /// The base URL its models' relative URLs resolve against.
    var baseURL: URL? { get }
    /// The backend its models use when they have none of their own.
    var sync: (any Sync)? { get }
    /// The wire format of its models, when it overrides their class's.
    var wireFormat: WireFormat? { get }
}
