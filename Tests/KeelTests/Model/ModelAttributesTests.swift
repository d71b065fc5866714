import Keel
import Testing

// Ports of Backbone's test/model.js cases about reading and writing attributes: `get`,
// `has`, `escape`, `matches`, `set`, `unset` and `clear`.

/// Backbone's `beforeEach` document, without the collection (only `url` tests used it).
private func makeDocument() -> Model {
    Model([
        "id": "1-the-tempest",
        "title": "The Tempest",
        "author": "Bill Shakespeare",
        "length": 123,
    ])
}

struct ModelAttributesTests {
    // MARK: - Reading

    // Backbone: "get"
    @Test func getReturnsAttributeValues() {
        let document = makeDocument()
        #expect(document.get("title") == "The Tempest")
        #expect(document.get("author") == "Bill Shakespeare")
        #expect(document["length"] == 123)
    }

    @Test func getReturnsNilForAbsentAndNullForNull() {
        let model = Model(["empty": nil])
        #expect(model.get("missing") == nil)
        #expect(model.get("empty") == .null)
    }

    // Backbone: "escape"
    @Test func escapeEscapesHTMLAndGivesEmptyStringForAbsent() {
        let document = makeDocument()
        #expect(document.escape("title") == "The Tempest")
        document.set(["audience": "Bill & Bob"])
        #expect(document.escape("audience") == "Bill &amp; Bob")
        document.set(["audience": "Tim > Joan"])
        #expect(document.escape("audience") == "Tim &gt; Joan")
        document.unset("audience")
        #expect(document.escape("audience") == "")
    }

    // Backbone: "escape" (the number case)
    @Test func escapeWritesNumbersAsText() {
        let document = makeDocument()
        document.set(["audience": 10101])
        #expect(document.escape("audience") == "10101")
    }

    @Test func escapeGivesEmptyStringForNullAndEscapesEveryHTMLCharacter() {
        let model = Model(["nothing": nil, "markup": "<a href=\"x\">'&'`</a>"])
        #expect(model.escape("nothing") == "")
        #expect(model.escape("markup") == "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&#x60;&lt;/a&gt;")
    }

    // Backbone: "has"
    // Adapted: Backbone's `undefined` is an absent key in Keel.
    @Test func hasIsTrueForFalsyValuesAndFalseForNullAndAbsent() {
        let model = Model()
        #expect(model.has("name") == false)

        model.set([
            "0": 0,
            "1": 1,
            "true": true,
            "false": false,
            "empty": "",
            "name": "name",
            "null": nil,
        ])

        #expect(model.has("0") == true)
        #expect(model.has("1") == true)
        #expect(model.has("true") == true)
        #expect(model.has("false") == true)
        #expect(model.has("empty") == true)
        #expect(model.has("name") == true)

        model.unset("name")

        #expect(model.has("name") == false)
        #expect(model.has("null") == false)
        #expect(model.has("undefined") == false)
    }

    // Backbone: "matches"
    @Test func matchesComparesAPartialSetOfAttributes() {
        let model = Model()
        #expect(model.matches(["name": "Jonas", "cool": true]) == false)

        model.set(["name": "Jonas", "cool": true])

        #expect(model.matches(["name": "Jonas"]) == true)
        #expect(model.matches(["name": "Jonas", "cool": true]) == true)
        #expect(model.matches(["name": "Jonas", "cool": false]) == false)
    }

    @Test func matchesComparesNestedValuesDeeplyAndNumbersByValue() {
        let model = Model(["author": ["name": "Ann", "tags": [1, 2]], "count": 1])
        #expect(model.matches(["author": ["tags": [1, 2], "name": "Ann"]]))
        #expect(model.matches(["count": 1.0]))
        #expect(!model.matches(["author": ["name": "Ann"]]))
        #expect(model.matches([:]))
    }

    // Backbone: "matches with predicate"
    // Adapted: Keel has no predicate overload of `matches`; the predicate runs on `attributes`.
    @Test func attributesCanBeMatchedWithAPredicate() {
        let model = Model(["a": 0])
        let predicate = { (attributes: Attributes) -> Bool in
            (attributes["a"]?.doubleValue ?? 0) > 1 && attributes["b"].map { !$0.isNull } == true
        }
        #expect(predicate(model.attributes) == false)

        model.set(["a": 3, "b": true])

        #expect(predicate(model.attributes) == true)
    }

    // MARK: - Writing

    // Backbone: "set and unset"
    @Test func setAndUnsetFireChangeOnlyForRealChanges() {
        let model = Model(["id": "id", "foo": 1, "bar": 2, "baz": 3])
        var changeCount = 0
        model.on("change:foo") { _ in changeCount += 1 }
        model.set(["foo": 2])
        #expect(model.get("foo") == 2)
        #expect(changeCount == 1)
        // A value that is not new fires nothing.
        model.set(["foo": 2])
        #expect(model.get("foo") == 2)
        #expect(changeCount == 1)

        model.unset("foo")
        #expect(model.get("foo") == nil)
        #expect(changeCount == 2)

        model.unset("id")
        #expect(model.id == nil)
    }

    @Test func setReturnsTrueWhenAccepted() {
        let model = Model()
        #expect(model.set(["a": 1]))
        #expect(model.set("b", 2))
        #expect(model.set(["a": 1]))
        #expect(model.unset("a"))
        #expect(model.clear())
    }

    @Test func setOneKeyAndSubscriptWriteAttributes() {
        let model = Model()
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set("title", "Dune")
        model["year"] = 1965
        model["title"] = nil
        #expect(model.attributes == ["year": 1965])
        #expect(names == ["change:title", "change", "change:year", "change", "change:title", "change"])
    }

    // Backbone: "set an empty string"
    @Test func setStoresAnEmptyString() {
        let model = Model(["name": "Model"])
        model.set(["name": ""])
        #expect(model.get("name") == "")
    }

    // Backbone: "setting an object"
    @Test func settingADeepEqualObjectFiresNoChange() {
        let model = Model(["custom": ["foo": 1]])
        var changes = 0
        model.on("change") { _ in changes += 1 }
        model.set(["custom": ["foo": 1]])  // no change
        model.set(["custom": ["foo": 2]])  // one change
        #expect(changes == 1)
    }

    // Backbone: "set same value does not trigger change"
    @Test func settingTheSameValueTwiceFiresNothing() {
        let model = Model(["x": 1])
        var fired = 0
        model.on("change change:x") { _ in fired += 1 }
        model.set(["x": 1])
        model.set(["x": 1])
        #expect(fired == 0)
    }

    // Keel decision: numbers compare by value (1 == 1.0) and 0 == -0, unlike `_.isEqual`.
    @Test func numbersCompareByValueSoEqualNumbersFireNothing() {
        let model = Model(["x": 1, "zero": 0, "float": 0.0])
        var fired: [String] = []
        model.on("all") { fired.append($0.name) }
        model.set(["x": 1.0])
        model.set(["zero": -0.0])
        model.set(["float": -0.0])
        #expect(fired.isEmpty)
        #expect(!model.hasChanged())
        model.set(["x": 1.5])
        #expect(fired == ["change:x", "change"])
    }

    // Backbone: "set value regardless of equality/change"
    // Adapted: values have no identity in Swift, so an equal value is not stored again
    // (a documented difference): 1.0 over 1 keeps 1 and fires nothing.
    @Test func setKeepsTheCurrentValueWhenTheNewOneIsEqual() {
        let model = Model(["x": 1])
        var fired = 0
        model.on("all") { _ in fired += 1 }
        model.set(["x": 1.0])
        #expect(fired == 0)
        var keepsTheInteger = false
        if case .int(1)? = model.get("x") { keepsTheInteger = true }
        #expect(keepsTheInteger)
    }

    // Backbone: "set: undefined values"
    // Adapted: Backbone's `undefined` is absent in Keel; a JSON null is a stored value.
    @Test func setNilStoresNullAndKeepsTheKey() {
        let model = Model(["x": nil])
        #expect(model.attributes.contains("x"))
        #expect(model.get("x") == .null)
        #expect(!model.has("x"))

        model.set(["y": nil])
        #expect(model.attributes.keys == ["x", "y"])
    }

    // Backbone: "multiple unsets"
    @Test func unsettingAMissingAttributeFiresNothing() {
        var count = 0
        let model = Model(["a": 1])
        model.on("change:a") { _ in count += 1 }
        model.set(["a": 2])
        model.unset("a")
        model.unset("a")
        #expect(count == 2)
    }

    // Backbone: "unset does not fire a change for undefined attributes"
    // Adapted: an `undefined` attribute is an absent one in Keel.
    @Test func unsetOfAnAbsentAttributeFiresNoChange() {
        let model = Model()
        var fired = 0
        model.on("change:x change") { _ in fired += 1 }
        model.unset("x")
        #expect(fired == 0)
        let hasChanged = model.hasChanged()
        let hasChangedAttributes = model.changedAttributes() != nil
        #expect(hasChanged == false)
        #expect(hasChangedAttributes == false)
    }

    @Test func unsetOfANullAttributeRemovesItAndFires() {
        let model = Model(["x": nil])
        var values: [JSONValue?] = []
        model.on("change:x") { values.append($0.value) }
        model.unset("x")
        #expect(model.attributes.contains("x") == false)
        #expect(values == [nil])
        let hasChangedX = model.hasChanged("x")
        let changedIsXNull = model.changed == ["x": nil]
        #expect(hasChangedX)
        #expect(changedIsXNull)
    }

    // Backbone: "clear"
    @Test func clearFiresAttributeChangesAndRemovesEverything() {
        var changed = false
        var changedAttributesSeen: Attributes?
        let model = Model(["id": 1, "name": "Model"])
        model.on("change:name") { _ in changed = true }
        model.on("change") { _ in changedAttributesSeen = model.changedAttributes() }
        model.clear()
        #expect(changed)
        #expect(changedAttributesSeen?.contains("name") == true)
        #expect(model.get("name") == nil)
    }

    // Backbone semantics §2.6 (verified): clear's events and the state it leaves.
    @Test func clearFiresChangeIDThenEachAttributeThenChange() {
        let model = Model(["id": 5, "a": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.clear()
        #expect(names == ["changeId", "change:id", "change:a", "change"])
        #expect(model.id == nil)
        #expect(model.isNew)
        #expect(model.attributes.isEmpty)
        #expect(model.changed == ["id": nil, "a": nil])
    }

    @Test func clearOfAnEmptyModelFiresNothing() {
        let model = Model()
        var fired = 0
        model.on("all") { _ in fired += 1 }
        model.clear()
        #expect(fired == 0)
    }

    // Backbone semantics §0.3: change events follow the attributes' order, which is the
    // insertion order in Keel.
    @Test func attributeChangesFireInTheOrderGiven() {
        let model = Model()
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["b": 1, "a": 2, "10": 3])
        #expect(names == ["change:b", "change:a", "change:10", "change"])
        #expect(model.attributes.keys == ["b", "a", "10"])
    }

    @Test func changeAttributeEventCarriesModelAndNewValue() {
        let model = Model(["a": 1])
        var received: [(Model?, JSONValue?)] = []
        model.on("change:a") { received.append(($0.model, $0.value)) }
        model.set(["a": 2])
        model.unset("a")
        #expect(received.count == 2)
        #expect(received.allSatisfy { $0.0 === model })
        #expect(received.map(\.1) == [2, nil])
    }
}
