import Keel
import Testing

/// A model with its own id attribute.
private final class NamedModel: Model {
    override class var idAttribute: String { "name" }
}

/// A new model's id is read from its attributes (by the slot of the id attribute in its
/// layout), whatever the number of attributes and wherever the id attribute is.
struct ModelIDOnConstructionTests {
    @Test(arguments: [1, 3, 5, 13, 70])
    func theIDIsFoundAmongAnyNumberOfAttributes(count: Int) {
        var attributes = JSONObject(uniqueKeysWithLastValues: (0..<count).map { ("k\($0)", JSONValue.int($0)) })
        attributes["id"] = 42
        let model = Model(attributes)
        #expect(model.id == 42)
        #expect(!model.isNew)

        var first: Attributes = ["id": 7]
        for key in 0..<count { first["k\(key)"] = .int(key) }
        #expect(Model(first).id == 7)
    }

    @Test func aModelWithoutAnIDOrWithANullOneIsNew() {
        #expect(Model(["title": "a"]).id == nil)
        #expect(Model(["title": "a", "id": nil]).id == nil)
        #expect(Model(["title": "a", "id": nil]).isNew)
        #expect(Model().id == nil)
    }

    @Test func aCustomIDAttributeIsFound() {
        let model = NamedModel(["id": 1, "name": "ann", "age": 3, "city": "x"])
        #expect(model.id == "ann")
        #expect(NamedModel(["id": 1]).id == nil)
    }

    @Test func anIDWithOtherKeyBitsIsFound() {
        var key = "a_rather_long_id_attribute"
        key += "_name"
        let model = LongIDModel([key: 9, "b": 1])
        #expect(model.id == 9)
    }
}

/// A model whose id attribute is too long to be compared by its bits alone.
private final class LongIDModel: Model {
    override class var idAttribute: String { "a_rather_long_id_attribute_name" }
}
