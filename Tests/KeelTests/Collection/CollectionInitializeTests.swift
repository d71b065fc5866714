import Keel
import Testing

private final class Book: Model {}

/// Sets a property in `initialize`, and records what it saw there.
private final class InitializedCollection: Collection<Model> {
    var one = 0
    var initializeOptions: UpdateOptions?
    var countAtInitialize: Int?

    override func initialize(options: UpdateOptions) {
        one = 1
        initializeOptions = options
        countAtInitialize = count
    }
}

/// Has state set up before `initialize` runs (Swift's property initializers play the part of
/// Backbone's `preinitialize`).
private final class PreparedCollection: Collection<Model> {
    var one = 1
    var oneAtInitialize: Int?

    override func initialize(options: UpdateOptions) {
        oneAtInitialize = one
    }
}

struct CollectionInitializeTests {
    // Backbone: "initialize"
    @Test func initializeRunsDuringConstruction() {
        let collection = InitializedCollection()
        #expect(collection.one == 1)
    }

    // Backbone: "preinitialize"
    @Test func propertyInitializersRunBeforeInitialize() {
        // Keel: there is no `preinitialize`; stored property initializers run first.
        let collection = PreparedCollection()
        #expect(collection.oneAtInitialize == 1)
    }

    // Backbone: "#1112 - passing options.model sets collection.model"
    @Test func theGenericParameterIsTheModelClass() throws {
        // Keel: the model class is the generic parameter rather than an option.
        let collection = Collection<Book>([["id": 1]])
        let first = try #require(collection.at(0))
        #expect(type(of: first) == Book.self)
        let added = try #require(collection.add(["id": 2]))
        #expect(type(of: added) == Book.self)
    }

    // Backbone: "Attach options to collection."
    @Test func initializerAttachesTheComparatorAndPassesOptions() {
        // Keel: comparators are values, not functions, so this checks that the given one is used.
        let collection = InitializedCollection(comparator: .attribute("id"), options: UpdateOptions(custom: ["a": 1]))
        #expect(collection.comparator != nil)
        #expect(collection.initializeOptions?["a"] == 1)
        collection.add([["id": 2], ["id": 1]])
        #expect(collection.pluck("id") == [1, 2])
    }

    // Backbone: "Pass falsey for `models` for empty Col with `options`"
    @Test func initializeReceivesTheOptionsOfAnEmptyCollection() {
        // Keel: there is no falsy `models` argument; leaving it out gives an empty collection.
        let collection = InitializedCollection(options: UpdateOptions(custom: ["a": 1, "b": 2]))
        #expect(collection.initializeOptions?.custom == ["a": 1, "b": 2])
        #expect(collection.isEmpty)
    }

    // Keel: no events fire during construction, but the initial models are sorted and attached.
    @Test func constructionFiresNoEventsAndAttachesModels() throws {
        let model = Model(["id": 2])
        var modelEvents: [String] = []
        model.on("all") { modelEvents.append($0.name) }
        let collection = Collection<Model>([model, Model(["id": 1])], comparator: .attribute("id"))
        #expect(modelEvents.isEmpty)
        #expect(collection.pluck("id") == [1, 2])
        #expect(model.collection === collection)
        let built = Collection<Model>([["id": 1]])
        #expect(built.first?.collection === built)
    }

    // Keel: `initialize` runs "at the end of construction", so it sees the initial models,
    // whichever initializer is used. (Backbone runs `initialize` before adding them.)
    @Test func initializeSeesTheInitialModelsFromEitherInitializer() {
        let fromModels = InitializedCollection([Model(["id": 1]), Model(["id": 2])])
        #expect(fromModels.countAtInitialize == 2)
        let fromAttributes = InitializedCollection([["id": 1], ["id": 2]])
        #expect(fromAttributes.countAtInitialize == 2)
    }
}
