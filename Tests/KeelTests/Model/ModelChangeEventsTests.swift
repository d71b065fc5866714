import Keel
import Testing

// Ports of Backbone's test/model.js cases about change tracking: the order of events,
// nested and silent sets, `changed`, `hasChanged`, `changedAttributes` and `previous`.

struct ModelChangeEventsTests {
    // MARK: - Event order

    // Backbone: "set triggers changes in the correct order"
    @Test func triggeredEventsRunInTheOrderTriggered() {
        var value: String?
        let model = Model()
        model.on("last") { _ in value = "last" }
        model.on("first") { _ in value = "first" }
        model.trigger("first")
        model.trigger("last")
        #expect(value == "last")
    }

    // Backbone: "#582, #425, change:attribute callbacks should fire after all changes have occurred"
    @Test func attributeEventsFireAfterEveryValueIsAssigned() {
        let model = Model()
        var snapshots: [Attributes] = []
        model.on("change:a change:b change:c") { _ in snapshots.append(model.attributes) }
        model.set(["a": "a", "b": "b", "c": "c"])
        #expect(snapshots.count == 3)
        #expect(snapshots.allSatisfy { $0 == ["a": "a", "b": "b", "c": "c"] })
    }

    // Backbone semantics §2.3: `changeId`, then each `change:<attribute>`, then one `change`.
    @Test func changeIDFiresBeforeAttributeEventsAndChangeLast() {
        let model = Model(["id": 1, "a": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["a": 2, "id": 2])
        #expect(names == ["changeId", "change:a", "change:id", "change"])
    }

    // Backbone: "nested `set` during `'change:attr'`"
    @Test func nestedSetDuringAttributeEventFiresItsEventsFirst() {
        var events: [String] = []
        let model = Model()
        model.on("all") { events.append($0.name) }
        model.on("change") { _ in model.set(["z": true], silent: true) }
        model.on("change:x") { _ in model.set(["y": true]) }
        model.set(["x": true])
        #expect(events == ["change:y", "change:x", "change"])
        events = []
        model.set(["z": true])
        #expect(events == [])
    }

    // Backbone: "nested `change` only fires once"
    @Test func nestedSetOfTheSameValueFiresNoSecondChange() {
        var count = 0
        let model = Model()
        model.on("change") { _ in
            count += 1
            model.set(["x": true])
        }
        model.set(["x": true])
        #expect(count == 1)
    }

    // Backbone: "nested `set` during `'change'`"
    @Test func nestedSetDuringChangeAccumulatesChangedAttributes() {
        var count = 0
        var seen: [Attributes?] = []
        var previous: [JSONValue?] = []
        let model = Model()
        model.on("change") { _ in
            defer { count += 1 }
            seen.append(model.changedAttributes())
            switch count {
            case 0:
                previous.append(model.previous("x"))
                model.set(["y": true])
            case 1:
                previous.append(model.previous("x"))
                model.set(["z": true])
            default:
                previous.append(model.previous("y"))
            }
        }
        model.set(["x": true])
        #expect(count == 3)
        #expect(seen == [["x": true], ["x": true, "y": true], ["x": true, "y": true, "z": true]])
        #expect(previous == [nil, nil, nil])
    }

    // Backbone: "nested set triggers with the correct options"
    // Adapted: options are values in Keel; each set is told apart by a custom value.
    @Test func eachNestedChangeCarriesTheOptionsOfItsOwnSet() {
        let model = Model()
        var received: [JSONValue?] = []
        model.on("change") { event in
            received.append(event.options["set"])
            switch model.get("a") {
            case 1: model.set("a", 2, options: ChangeOptions(custom: ["set": "o2"]))
            case 2: model.set("a", 3, options: ChangeOptions(custom: ["set": "o3"]))
            default: break
            }
        }
        model.set("a", 1, options: ChangeOptions(custom: ["set": "o1"]))
        #expect(received == ["o1", "o2", "o3"])
    }

    // Backbone: "Nested change events don't clobber previous attributes"
    @Test func nestedSetKeepsPreviousForLaterHandlers() {
        let model = Model()
        var seen: [(JSONValue?, JSONValue?)] = []
        model.on("change:state") { event in
            seen.append((model.previous("state"), event.value))
            model.set(["other": "whatever"])
        }
        model.on("change:state") { event in
            seen.append((model.previous("state"), event.value))
        }
        model.set(["state": "hello"])
        #expect(seen.count == 2)
        #expect(seen.map(\.0) == [nil, nil])
        #expect(seen.map(\.1) == ["hello", "hello"])
    }

    // Backbone: "multiple nested changes with silent" (the first of two tests with this name)
    @Test func attributeEventAfterNestedSilentSetCarriesTheFinalValue() {
        let model = Model()
        var values: [JSONValue?] = []
        model.on("change:x") { _ in
            model.set(["y": 1], silent: true)
            model.set(["y": 2])
        }
        model.on("change:y") { values.append($0.value) }
        model.set(["x": true])
        #expect(values == [2])
    }

    // Backbone: "multiple nested changes with silent" (the second of two tests with this name)
    @Test func setDuringChangeFiresAttributeEventsInOrder() {
        var changes: [JSONValue?] = []
        let model = Model()
        model.on("change:b") { changes.append($0.value) }
        model.on("change") { _ in model.set(["b": 1]) }
        model.set(["b": 0])
        #expect(changes == [0, 1])
    }

    // Backbone: "nested set multiple times"
    @Test func repeatedNestedSetOfTheSameValueFiresOnce() {
        let model = Model()
        var count = 0
        model.on("change:b") { _ in count += 1 }
        model.on("change:a") { _ in
            model.set(["b": true])
            model.set(["b": true])
        }
        model.set(["a": true])
        #expect(count == 1)
    }

    // Backbone: "#1964 - final `change` event is always fired, regardless of interim changes"
    @Test func finalChangeFiresDespiteInterimChanges() {
        let model = Model()
        var count = 0
        model.on("change:property") { _ in model.set("property", "bar") }
        model.on("change") { _ in count += 1 }
        model.set("property", "foo")
        #expect(count == 1)
        #expect(model.get("property") == "bar")
    }

    // Backbone semantics §2.3 (verified): setting a value back to its original inside a nested
    // set fires both attribute events, then `change` with nothing left in `changed`.
    @Test func nestedRevertFiresBothEventsAndLeavesNoChanges() {
        let model = Model(["a": 1])
        var log: [String] = []
        var hadChangesInChange: Bool?
        model.on("change:a") { event in
            log.append("change:a \(event.value?.intValue ?? -1)")
            if event.value == 2 { model.set(["a": 1]) }
        }
        model.on("change") { _ in
            log.append("change")
            hadChangesInChange = model.hasChanged()
        }
        model.set(["a": 2])
        #expect(log == ["change:a 2", "change:a 1", "change"])
        #expect(hadChangesInChange == false)
        #expect(model.changed.isEmpty)
    }

    // Backbone semantics §2.3: a key added and then removed again within one outermost set
    // is not a change; its events still fire.
    @Test func nestedUnsetOfANewKeyLeavesNoChanges() {
        let model = Model()
        var log: [String] = []
        model.on("change:x") { event in
            log.append("change:x \(event.value?.intValue ?? -1)")
            if event.value == 1 { model.unset("x") }
        }
        model.on("change") { _ in log.append("change") }
        model.set(["x": 1])
        #expect(log == ["change:x 1", "change:x -1", "change"])
        #expect(model.attributes.isEmpty)
        let hasChanged = model.hasChanged()
        #expect(hasChanged == false)
    }

    // Backbone semantics §2.3 (verified): an attribute event reads the value when it starts,
    // so a value set by an earlier handler of the same batch is seen twice.
    @Test func laterAttributeEventOfABatchSeesTheValueSetByAnEarlierHandler() {
        let model = Model()
        var log: [String] = []
        model.on("change:a") { _ in model.set(["b": 5]) }
        model.on("change:b") { log.append("b \($0.value?.intValue ?? -1)") }
        model.set(["a": 1, "b": 1])
        #expect(log == ["b 5", "b 5"])
    }

    // Backbone semantics §2.3 (verified, issue #3296): every listener of one dispatch gets
    // the same value, so a later listener sees the nested value first, then the outer one.
    @Test func listenersOfOneDispatchShareItsValue() {
        let model = Model()
        var log: [String] = []
        model.on("change:a") { event in
            log.append("l1:\(event.value?.intValue ?? -1)")
            if event.value == 1 { model.set(["a": 2]) }
        }
        model.on("change:a") { log.append("l2:\($0.value?.intValue ?? -1)") }
        model.set(["a": 1])
        #expect(log == ["l1:1", "l1:2", "l2:2", "l2:1"])
        #expect(model.get("a") == 2)
    }

    // MARK: - Silent sets

    // Backbone: "nested `change` with silent"
    @Test func silentNestedSetIsMergedIntoTheNextChange() {
        var count = 0
        var seen: [Attributes?] = []
        var changeYFired = false
        let model = Model()
        model.on("change:y") { _ in changeYFired = true }
        model.on("change") { _ in
            defer { count += 1 }
            seen.append(model.changedAttributes())
            if count == 0 {
                model.set(["y": true], silent: true)
                model.set(["z": true])
            }
        }
        model.set(["x": true])
        model.set(["z": false])
        #expect(!changeYFired)
        #expect(seen == [["x": true], ["x": true, "y": true, "z": true], ["z": false]])
    }

    // Backbone: "nested `change:attr` with silent"
    @Test func silentNestedSetFiresNoAttributeEvent() {
        let model = Model()
        var changeYFired = false
        model.on("change:y") { _ in changeYFired = true }
        model.on("change") { _ in
            model.set(["y": true], silent: true)
            model.set(["z": true])
        }
        model.set(["x": true])
        #expect(!changeYFired)
    }

    // Backbone: "basic silent change semantics"
    @Test func changeBackToOriginalAfterSilentChangeFires() {
        let model = Model()
        model.set(["x": 1])
        var count = 0
        model.on("change") { _ in count += 1 }
        model.set(["x": 2], silent: true)
        model.set(["x": 1])
        #expect(count == 1)
    }

    // Backbone: "#1664 - Changing from one value, silently to another, back to original triggers a change."
    @Test func silentChangesThenBackToOriginalFiresAttributeEvent() {
        let model = Model(["x": 1])
        var count = 0
        model.on("change:x") { _ in count += 1 }
        model.set(["x": 2], silent: true)
        model.set(["x": 3], silent: true)
        model.set(["x": 1])
        #expect(count == 1)
    }

    // Backbone: "#1664 - multiple silent changes nested inside a change event"
    @Test func silentSetsAndUnsetInsideChangeApplyWithoutEvents() {
        var changes: [JSONValue?] = []
        let model = Model()
        model.on("change") { _ in
            model.set(["a": "c"], silent: true)
            model.set(["b": 2], silent: true)
            model.unset("c", silent: true)
        }
        model.on("change:a change:b change:c") { changes.append($0.value) }
        model.set(["a": "a", "b": 1, "c": "item"])
        #expect(changes == ["a", 1, "item"])
        #expect(model.attributes == ["a": "c", "b": 2])
    }

    // Backbone: "silent changes in last `change` event back to original triggers change"
    @Test func silentRevertInChangeMakesTheNextEqualSetFire() {
        var changes: [JSONValue?] = []
        let model = Model()
        model.on("change:a change:b change:c") { changes.append($0.value) }
        model.on("change") { _ in model.set(["a": "c"], silent: true) }
        model.set(["a": "a"])
        #expect(changes == ["a"])
        model.set(["a": "a"])
        #expect(changes == ["a", "a"])
    }

    // Backbone: "#2034 - nested set with silent only triggers one change"
    @Test func silentNestedSetTriggersNoSecondChange() {
        let model = Model()
        var count = 0
        model.on("change") { _ in
            model.set(["b": true], silent: true)
            count += 1
        }
        model.set(["a": true])
        #expect(count == 1)
    }

    // Backbone semantics §2.5 (verified): `changeId` fires even for a silent set.
    @Test func changeIDFiresEvenWhenSilent() {
        let model = Model(["id": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["id": 2], silent: true)
        #expect(names == ["changeId"])
        #expect(model.id == 2)
    }

    // MARK: - changed, hasChanged, changedAttributes, previous

    // Backbone: "change, hasChanged, changedAttributes, previous, previousAttributes"
    @Test func changeTrackingInsideAChangeHandler() {
        let model = Model(["name": "Tim", "age": 10])
        #expect(model.changedAttributes() == nil)
        var checked = false
        model.on("change") { _ in
            #expect(model.hasChanged("name"))
            #expect(model.hasChanged("age") == false)
            #expect(model.changedAttributes() == ["name": "Rob"])
            #expect(model.previous("name") == "Tim")
            #expect(model.previousAttributes() == ["name": "Tim", "age": 10])
            checked = true
        }
        #expect(model.hasChanged() == false)
        #expect(model.hasChanged(nil) == false)
        model.set(["name": "Rob"])
        #expect(model.get("name") == "Rob")
        #expect(checked)
    }

    // Backbone: "changedAttributes"
    @Test func changedAttributesWithADiffReturnsOnlyDifferingValues() {
        let model = Model(["a": "a", "b": "b"])
        #expect(model.changedAttributes() == nil)
        #expect(model.changedAttributes(["a": "a"]) == nil)
        #expect(model.changedAttributes(["a": "b"])?["a"] == "b")
    }

    // Backbone semantics §2.4 (verified): during a set, the diff is against the attributes
    // before it; afterwards, against the current ones.
    @Test func changedAttributesDiffComparesWithPreviousDuringASet() {
        let model = Model(["a": 1])
        var duringSet: Attributes?? = .none
        model.on("change") { _ in duringSet = .some(model.changedAttributes(["a": 1])) }
        model.set(["a": 2])
        #expect(duringSet == .some(nil))
        #expect(model.changedAttributes(["a": 1]) == ["a": 1])
        #expect(model.changedAttributes(["a": 2]) == nil)
    }

    // Backbone: "unset and changedAttributes"
    @Test func unsetAttributeAppearsInChangedAttributesAsNull() {
        let model = Model(["a": 1])
        var seen: Attributes?
        model.on("change") { _ in seen = model.changedAttributes() }
        model.unset("a")
        #expect(seen?.contains("a") == true)
        #expect(seen == ["a": nil])
    }

    // Backbone: "change with options"
    // Adapted: custom options travel in `ChangeOptions.custom`.
    @Test func changeHandlerReceivesTheCallersOptions() {
        var value: String?
        let model = Model(["name": "Rob"])
        model.on("change") { event in
            value = (event.options["prefix"]?.stringValue ?? "") + (event.model?.get("name")?.stringValue ?? "")
        }
        model.set(["name": "Bob"], options: ChangeOptions(custom: ["prefix": "Mr. "]))
        #expect(value == "Mr. Bob")
        model.set(["name": "Sue"], options: ChangeOptions(custom: ["prefix": "Ms. "]))
        #expect(value == "Ms. Sue")
    }

    // Backbone: "change after initialize"
    @Test func settingTheInitialAttributesAgainFiresNothing() {
        var changed = 0
        let attributes: Attributes = ["id": 1, "label": "c"]
        let model = Model(attributes)
        model.on("change") { _ in changed += 1 }
        model.set(attributes)
        #expect(changed == 0)
    }

    // Backbone: "set falsy values in the correct order"
    // Adapted: Backbone's `undefined` is absent in Keel (`unset`); `changed` shows it as null.
    @Test func silentFalsySetsThenUnsetTrackPreviousAndChanged() {
        let model = Model(["result": "result"])
        var checks = 0
        model.on("change") { _ in
            #expect(model.changed["result"] == .null)
            #expect(model.previous("result") == false)
            checks += 1
        }
        model.unset("result", silent: true)
        model.set(["result": nil], silent: true)
        model.set(["result": false], silent: true)
        model.unset("result")
        #expect(checks == 1)
    }

    // Backbone: "hasChanged/set should use same comparison"
    // Adapted: null → `undefined` is an unset in Keel.
    @Test func unsettingANullAttributeIsAChange() {
        var changed = 0
        var hasChangedInChange: Bool?
        let model = Model(["a": nil])
        model.on("change") { _ in hasChangedInChange = model.hasChanged("a") }
        model.on("change:a") { _ in changed += 1 }
        model.unset("a")
        #expect(changed == 1)
        let reported = hasChangedInChange
        #expect(reported == true)
    }

    // Backbone: "hasChanged works outside of change events, and true within"
    @Test func hasChangedReflectsSilentChangesUntilTheNextSet() {
        let model = Model(["x": 1])
        var inside: [(Bool, JSONValue?)] = []
        model.on("change:x") { _ in inside.append((model.hasChanged("x"), model.get("x"))) }
        model.set(["x": 2], silent: true)
        #expect(model.hasChanged())
        #expect(model.hasChanged("x") == true)
        model.set(["x": 1])
        #expect(model.hasChanged())
        #expect(model.hasChanged("x") == true)
        #expect(inside.count == 1)
        #expect(inside.first?.0 == true)
        #expect(inside.first?.1 == 1)
    }

    // Backbone: "hasChanged gets cleared on the following set"
    @Test func hasChangedIsClearedByTheNextSet() {
        let model = Model()
        model.set(["x": 1])
        #expect(model.hasChanged())
        model.set(["x": 1])
        #expect(model.hasChanged() == false)
        model.set(["x": 2])
        #expect(model.hasChanged())
        model.set([:])
        #expect(model.hasChanged() == false)
    }

    // Backbone: "`hasChanged` for falsey keys"
    // Adapted: keys are strings in Keel; "0" and "" stand for Backbone's 0 and ''.
    @Test func hasChangedForFalsyLookingKeys() {
        let model = Model()
        model.set(["x": true], silent: true)
        #expect(model.hasChanged("0") == false)
        #expect(model.hasChanged("") == false)
        model.set(["0": 1, "": 2], silent: true)
        #expect(model.hasChanged("0"))
        #expect(model.hasChanged(""))
    }

    // Backbone: "`previous` for falsey keys"
    // Adapted: keys are strings in Keel.
    @Test func previousForFalsyLookingKeys() {
        let model = Model(["0": true, "": true])
        model.set(["0": false, "": false], silent: true)
        #expect(model.previous("0") == true)
        #expect(model.previous("") == true)
    }

    // Backbone: "#1943 change calculations should use _.isEqual"
    @Test func deepEqualSilentSetLeavesNoChangedAttributes() {
        let model = Model(["a": ["key": "value"]])
        model.set("a", ["key": "value"], silent: true)
        #expect(model.changedAttributes() == nil)
    }

    @Test func changedPersistsAfterTheSetAndPreviousAttributesIsTheStateBefore() {
        let model = Model(["a": 1, "b": 2])
        model.set(["a": 10, "c": 3])
        #expect(model.changed == ["a": 10, "c": 3])
        #expect(model.previousAttributes() == ["a": 1, "b": 2])
        #expect(model.previous("a") == 1)
        #expect(model.previous("c") == nil)
    }

    // MARK: - Reusing options

    // Backbone: "#1122 - clear does not alter options." and "#1122 - unset does not alter options."
    // Adapted: options are values in Keel; reusing the options of an unset or clear for a
    // later set must still set.
    @Test func optionsUsedForUnsetAndClearStillSetWhenReused() {
        let model = Model(["x": 1])
        let options = ChangeOptions(custom: ["source": "test"])
        model.unset("x", options: options)
        model.clear(options: options)
        model.set(["y": 1], options: options)
        #expect(model.attributes == ["y": 1])
    }
}
