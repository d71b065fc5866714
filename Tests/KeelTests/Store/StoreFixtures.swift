import Keel

/// A todo for the store's tests: `/todos`, with typed keys.
final class StoreTodo: Model {
    static let title = AttributeKey<String>("title")
    static let done = AttributeKey<Bool>("done")
    static let rank = AttributeKey<Int>("rank")
    static let group = AttributeKey<Int>("group")
    override class var urlRoot: String? { "/todos" }
}

/// A second class, to check that queries follow only their own.
final class StoreTag: Model {
    override class var urlRoot: String? { "/tags" }
}

/// Records the add, remove, sort and reset events of a query and replays them on a copy
/// of its results, so a test can check that the events describe every change.
final class QueryMirror<M: Model> {
    private(set) var models: [M]
    private(set) var names: [String] = []
    private let query: LiveQuery<M>

    init(_ query: LiveQuery<M>) {
        self.query = query
        models = query.models
        query.on("add remove sort reset", owner: self) { [unowned self] event in
            names.append(event.name)
            switch event.name {
            case "add":
                guard let model = event.model as? M, let index = event.index else { return }
                models.insert(model, at: index)
            case "remove":
                guard let index = event.index else { return }
                models.remove(at: index)
            default:
                models = self.query.models
            }
        }
    }
}
