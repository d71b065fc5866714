import Testing

@testable import Keel

/// Holds a collection strongly until something lets it go.
private final class Holder {
    var collection: Collection<Model>?
}

/// A subclass adding nothing: its instances are forwarded to through a weak reference,
/// since a subclass's own deinit runs before `Collection`'s.
private final class Subclassed: Collection<Model> {}

/// Valid only with a title.
private final class Titled: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["title"] == nil ? ValidationError("no title") : nil
    }
}

/// Which class of collection a test runs on: models refer to an instance of `Collection`
/// itself without a weak reference, and to a subclass's with one.
enum CollectionKind: CaseIterable {
    case plain
    case subclass

    func make(_ models: [Model] = [], factory: ((Attributes, ChangeOptions) -> Model)? = nil) -> Collection<Model> {
        switch self {
        case .plain: Collection<Model>(models, factory: factory)
        case .subclass: Subclassed(models, factory: factory)
        }
    }
}

/// A model does not keep its collection alive, and a collection does not outlive its last
/// reference because its models forward events to it: the edges of those lifetimes.
struct CollectionLifetimeTests {
    // MARK: - Model.collection

    @Test(arguments: CollectionKind.allCases)
    func aModelReadsNoCollectionOnceItsCollectionIsReleased(kind: CollectionKind) {
        let model = Model(["id": 1, "title": "a"])
        var collection: Collection<Model>? = kind.make([model])
        #expect(model.collection === collection)
        collection = nil
        #expect(model.collection == nil)
        #expect(model.handlerCount == 0)
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["title": "b"])
        #expect(names == ["change:title", "change"])
    }

    @Test(arguments: CollectionKind.allCases)
    func aRejectedModelReadsNoCollectionOnceItsCollectionIsReleased(kind: CollectionKind) throws {
        var collection: Collection<Model>? = kind.make(factory: { Titled($0, options: $1) })
        var rejected: Model?
        collection?.on("invalid") { rejected = $0.model }
        collection?.add(["id": 1], options: UpdateOptions(validate: true))
        let model = try #require(rejected)
        #expect(collection?.isEmpty == true)
        #expect(model.collection === collection)
        collection = nil
        #expect(model.collection == nil)
        model.set(["title": "b"])
        #expect(model["title"] == "b")
        #expect(model.handlerCount == 0)
    }

    @Test func aModelReadsNoCollectionInTheDeinitOfItsCollectionsSubclass() {
        let model = Model(["id": 1])
        var readNilInDeinit: Bool?
        var collection: NotifyingCollection? = NotifyingCollection([model])
        collection?.onDeinit = { readNilInDeinit = model.collection == nil }
        #expect(model.collection === collection)
        collection = nil
        #expect(readNilInDeinit == true)
        #expect(model.collection == nil)
    }

    // MARK: - Models in several collections

    @Test(arguments: CollectionKind.allCases)
    func aModelMovedToAnotherCollectionBelongsToItAndForwardsOnlyToIt(kind: CollectionKind) {
        let model = Model(["id": 1, "title": "a"])
        var first: Collection<Model>? = kind.make([model])
        let second = kind.make()
        var firstNames: [String] = []
        var secondNames: [String] = []
        first?.on("all") { firstNames.append($0.name) }
        second.on("all") { secondNames.append($0.name) }
        first?.remove(model)
        second.add(model)
        #expect(model.collection === second)
        first = nil
        model.set(["title": "b"])
        #expect(firstNames == ["remove", "update"])
        #expect(secondNames == ["add", "update", "change:title", "change"])
        #expect(model.collection === second)
        #expect(model.handlerCount == 1)
    }

    @Test(arguments: CollectionKind.allCases)
    func aModelInTwoCollectionsKeepsForwardingToTheOtherWhenItsCollectionIsReleased(kind: CollectionKind) {
        let model = Model(["id": 1, "title": "a"])
        var first: Collection<Model>? = kind.make([model])
        let second = kind.make([model])
        var names: [String] = []
        second.on("all") { names.append($0.name) }
        #expect(model.collection === first)
        first = nil
        model.set(["title": "b"])
        #expect(names == ["change:title", "change"])
        // As in Backbone, `collection` is the first collection, which has gone away.
        #expect(model.collection == nil)
        #expect(model.handlerCount == 1)
        #expect(second.count == 1)
    }

    // MARK: - Released during a dispatch

    @Test(arguments: CollectionKind.allCases)
    func aCollectionReleasedByItsOwnHandlerFinishesTheDispatchAndGetsNoMore(kind: CollectionKind) throws {
        let holder = Holder()
        holder.collection = kind.make([Model(["id": 1, "title": "a"])])
        let model = try #require(holder.collection?.first)
        weak let released = holder.collection
        var log: [String] = []
        model.on("change") { _ in log.append("model change") }
        holder.collection?.on("change:title") { _ in
            log.append("first")
            holder.collection = nil
        }
        holder.collection?.on("change:title") { _ in log.append("second") }
        holder.collection?.on("all") { log.append("all " + $0.name) }
        model.set(["title": "b"])
        #expect(log == ["first", "second", "all change:title", "model change"])
        #expect(released == nil)
        #expect(model.collection == nil)
        model.set(["title": "c"])
        #expect(log.count == 5)
        #expect(model.handlerCount == 1)
    }

    @Test(arguments: CollectionKind.allCases)
    func aCollectionReleasedByItsModelsHandlerReceivesNothingMore(kind: CollectionKind) throws {
        let holder = Holder()
        holder.collection = kind.make([Model(["id": 1, "title": "a"])])
        let model = try #require(holder.collection?.first)
        var names: [String] = []
        holder.collection?.on("all") { names.append($0.name) }
        model.on("change:title") { _ in holder.collection = nil }
        model.set(["title": "b"])
        model.set(["title": "c"])
        #expect(names.isEmpty)
        #expect(model.collection == nil)
        #expect(model.handlerCount == 1)
        #expect(model["title"] == "c")
    }

    @Test(arguments: CollectionKind.allCases)
    func aCollectionReleasedWhileItActsOnAForwardedEventFinishesIt(kind: CollectionKind) throws {
        let holder = Holder()
        holder.collection = kind.make([Model(["id": 1]), Model(["id": 2])])
        let destroyed = try #require(holder.collection?.first)
        let other = try #require(holder.collection?.last)
        var log: [String] = []
        holder.collection?.on("remove") { _ in
            log.append("remove")
            holder.collection = nil
        }
        holder.collection?.on("destroy") { _ in log.append("destroy") }
        destroyed.trigger(Event(name: "destroy", model: destroyed))
        #expect(log == ["remove", "destroy"])
        #expect(destroyed.collection == nil)
        #expect(other.collection == nil)
        #expect(other.handlerCount == 0)
        other.trigger(Event(name: "destroy", model: other))
        #expect(log.count == 2)
    }
}
