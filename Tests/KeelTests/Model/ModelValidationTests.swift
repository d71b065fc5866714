import Keel
import Testing

// Ports of Backbone's test/model.js validation cases, adapted to Keel's rule (from ISModel)
// that every change is validated unless the call passes `validate: false`.

/// A model whose validation is chosen per instance, like Backbone tests that assign
/// `model.validate = function …`.
private final class Validated: Model {
    var validator: ((Attributes, ChangeOptions) -> ValidationError?)?
    var validateCalls = 0

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        validateCalls += 1
        return validator?(attributes, options)
    }
}

/// Backbone's "#1961" model: rejects the id 1.
private final class RejectsIDOne: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["id"] == 1 ? ValidationError("This shouldn't happen") : nil
    }
}

/// Rejects a negative `count`.
private final class NonNegative: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        (attributes["count"]?.intValue ?? 0) < 0 ? ["count": ["must not be negative"]] : nil
    }
}

struct ModelValidationTests {
    // MARK: - Backbone cases

    // Backbone: "set and unset" (the `validate` part)
    // Adapted: Backbone's prospective attributes hold `foo: undefined`; Keel's lack the key.
    @Test func unsetValidatesTheAttributesWithoutTheKey() {
        let model = Validated(["id": "id", "foo": 1, "bar": 2, "baz": 3])
        var seen: Attributes?
        model.validator = { attributes, _ in
            seen = attributes
            return nil
        }
        #expect(model.unset("foo", validate: true))
        #expect(seen == ["id": "id", "bar": 2, "baz": 3])
        #expect(model.get("foo") == nil)
    }

    // Backbone: "#2030 - set with failed validate, followed by another set triggers change"
    @Test func failedSetLeavesNoPendingChange() {
        var attributeEvents = 0
        var changeEvents = 0
        var errors = 0
        let model = Validated(["x": 0])
        model.validator = { attributes, _ in
            guard (attributes["x"]?.intValue ?? 0) > 1 else { return nil }
            errors += 1
            return ValidationError("this is an error")
        }
        model.on("change:x") { _ in attributeEvents += 1 }
        model.on("change") { _ in changeEvents += 1 }
        model.set(["x": 2], validate: true)
        model.set(["x": 1], validate: true)
        #expect([attributeEvents, changeEvents, errors] == [1, 1, 1])
    }

    // Backbone: "validate"
    // Adapted: Backbone's plain `set` skips validation; Keel validates every change, so the
    // unvalidated `set({admin: true})` is `validate: false` here.
    @Test func invalidSetIsRejectedAndReportedAsInvalid() {
        var lastError: ValidationError?
        let model = Validated()
        model.validator = { [unowned model] attributes, _ in
            attributes["admin"] != model.get("admin") ? ValidationError("Can't change admin status.") : nil
        }
        model.on("invalid") { lastError = $0.validationError }
        var result = model.set(["a": 100])
        #expect(result)
        #expect(model.get("a") == 100)
        #expect(lastError == nil)
        result = model.set(["admin": true], validate: false)
        #expect(model.get("admin") == true)
        result = model.set(["a": 200, "admin": false], validate: true)
        #expect(lastError == ValidationError("Can't change admin status."))
        #expect(result == false)
        #expect(model.get("a") == 100)
    }

    // Backbone: "validate on unset and clear"
    // Adapted: Keel also validates a plain `unset`/`clear`, which Backbone does not.
    @Test func failingValidationBlocksUnsetAndClear() {
        var error = false
        let model = Validated(["name": "One"])
        model.validator = { attributes, _ in
            guard attributes["name"]?.stringValue?.isEmpty ?? true else { return nil }
            error = true
            return ValidationError("No thanks.")
        }
        model.set(["name": "Two"])
        #expect(model.get("name") == "Two")
        #expect(error == false)
        model.unset("name", validate: true)
        #expect(error == true)
        #expect(model.get("name") == "Two")
        model.clear(validate: true)
        #expect(model.get("name") == "Two")
        model.unset("name")
        model.clear()
        #expect(model.get("name") == "Two")
        model.validator = nil
        model.clear()
        #expect(model.get("name") == nil)
    }

    // Backbone: "validate with error callback"
    @Test func validationErrorIsClearedOnSuccessAndSetOnFailure() {
        var boundError = false
        let model = Validated()
        model.validator = { attributes, _ in
            attributes["admin"]?.boolValue == true ? ValidationError("Can't change admin status.") : nil
        }
        model.on("invalid") { _ in boundError = true }
        var result = model.set(["a": 100], validate: true)
        #expect(result)
        #expect(model.get("a") == 100)
        #expect(model.validationError == nil)
        #expect(boundError == false)
        result = model.set(["a": 200, "admin": true], validate: true)
        #expect(result == false)
        #expect(model.get("a") == 100)
        #expect(model.validationError == ValidationError("Can't change admin status."))
        #expect(boundError == true)
    }

    // Backbone: "isValid"
    // Adapted: the unvalidated `set({valid: false})` is `validate: false` in Keel.
    @Test func isValidChecksTheCurrentAttributes() {
        let model = Validated(["valid": true])
        model.validator = { attributes, _ in
            attributes["valid"]?.boolValue == true ? nil : ValidationError("invalid")
        }
        #expect(model.isValid() == true)
        #expect(model.set(["valid": false], validate: true) == false)
        #expect(model.isValid() == true)
        model.set(["valid": false], validate: false)
        #expect(model.isValid() == false)
        #expect(model.set("valid", false, validate: true) == false)
    }

    // Backbone: "#1179 - isValid returns true in the absence of validate."
    @Test func isValidIsTrueWithoutAValidateOverride() {
        #expect(Model().isValid())
        #expect(Model(["anything": nil]).isValid())
    }

    // Backbone: "#1961 - Creating a model with {validate:true} will call validate and use the error callback"
    @Test func constructionWithValidateSetsValidationError() {
        let model = RejectsIDOne(["id": 1], options: ChangeOptions(validate: true))
        #expect(model.validationError == ValidationError("This shouldn't happen"))
        // Backbone semantics §2.1 step 7 (verified): nothing is applied.
        #expect(model.attributes.isEmpty)
        #expect(model.id == nil)
    }

    // MARK: - Keel's validation rules (ISModel)

    @Test func everyChangeIsValidatedByDefault() {
        let model = NonNegative(["count": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        #expect(model.set(["count": -1]) == false)
        #expect(model.get("count") == 1)
        #expect(names == ["invalid", "error"])
        #expect(model.validationError?["count"] == ["must not be negative"])
    }

    @Test func validateFalseSkipsValidationForOneCall() {
        let model = NonNegative(["count": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        #expect(model.set(["count": -1], validate: false))
        #expect(model.get("count") == -1)
        #expect(names == ["change:count", "change"])
        #expect(model.validationError == nil)
        #expect(model.set(["count": -2]) == false)
    }

    @Test func validateTrueValidatesEvenWhenNothingChanges() {
        let model = Validated(["count": -1])
        model.validator = { attributes, _ in
            (attributes["count"]?.intValue ?? 0) < 0 ? ValidationError("negative") : nil
        }
        #expect(model.set(["count": -1]))
        #expect(model.validateCalls == 0)
        #expect(model.set(["count": -1], validate: true) == false)
        #expect(model.set([:], validate: true) == false)
        #expect(model.validateCalls == 2)
        #expect(model.validationError == ValidationError("negative"))
    }

    @Test func constructionValidatesOnlyWhenAsked() {
        let unchecked = NonNegative(["count": -1])
        #expect(unchecked.get("count") == -1)
        #expect(unchecked.validationError == nil)

        let checked = NonNegative(["count": -1], options: ChangeOptions(validate: true))
        #expect(checked.get("count") == nil)
        #expect(checked.validationError?["count"] == ["must not be negative"])
    }

    @Test func validateSeesTheWholeProspectiveStateAndTheCallsOptions() {
        let model = Validated(["a": 1, "b": 2])
        var seen: (Attributes, JSONValue?)?
        model.validator = { attributes, options in
            seen = (attributes, options["source"])
            return nil
        }
        model.set(["b": 3, "c": 4], options: ChangeOptions(custom: ["source": "form"]))
        #expect(seen?.0 == ["a": 1, "b": 3, "c": 4])
        #expect(seen?.1 == "form")
    }

    @Test func invalidAndErrorEventsCarryTheValidationError() {
        let model = NonNegative()
        var received: [(String, ValidationError?, Bool, Model?)] = []
        model.on("invalid error") { event in
            received.append((event.name, event.validationError, event.error is ValidationError, event.model))
        }
        model.set(["count": -5])
        let expected: ValidationError = ["count": ["must not be negative"]]
        #expect(received.map(\.0) == ["invalid", "error"])
        #expect(received.map(\.1) == [expected, expected])
        #expect(received.allSatisfy { $0.2 && $0.3 === model })
    }

    @Test func invalidEventCarriesTheCallsOptions() {
        let model = NonNegative()
        var source: JSONValue?
        model.on("invalid") { source = $0.options["source"] }
        model.set(["count": -1], options: ChangeOptions(custom: ["source": "form"]))
        #expect(source == "form")
    }

    @Test func validationErrorHandlerReplacesTheEvents() {
        let model = NonNegative(["count": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        var handled: [(Model, ValidationError, JSONValue?)] = []
        let options = ChangeOptions(custom: ["source": "form"]) { origin, errors, options in
            handled.append((origin, errors, options["source"]))
        }
        #expect(model.set(["count": -1], options: options) == false)
        #expect(names.isEmpty)
        #expect(handled.count == 1)
        #expect(handled.first?.0 === model)
        #expect(handled.first?.1 == ["count": ["must not be negative"]])
        #expect(handled.first?.2 == "form")
        #expect(model.validationError == ["count": ["must not be negative"]])
    }

    @Test func silentRejectsWithoutEventsOrHandler() {
        let model = NonNegative(["count": 1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        var handlerCalls = 0
        let options = ChangeOptions(onValidationError: { _, _, _ in handlerCalls += 1 })
        #expect(model.set(["count": -1], silent: true) == false)
        #expect(model.set(["count": -1], silent: true, options: options) == false)
        #expect(model.get("count") == 1)
        #expect(names.isEmpty)
        #expect(handlerCalls == 0)
    }

    // As in Backbone, `validationError` records a failure even when nothing is reported.
    @Test func silentRejectionStillRecordsValidationError() {
        let model = NonNegative(["count": 1])
        #expect(model.set(["count": -1], silent: true) == false)
        #expect(model.get("count") == 1)
        #expect(model.validationError?["count"] == ["must not be negative"])
        #expect(model.set(["count": 2], silent: true))
        #expect(model.validationError == nil)
    }

    @Test func noOpSetDoesNotValidate() {
        let model = Validated(["a": 1])
        model.validator = { _, _ in ValidationError("always") }
        #expect(model.set(["a": 1]))
        #expect(model.unset("missing"))
        #expect(model.validateCalls == 0)
        #expect(model.validationError == nil)
    }

    @Test func rejectedChangeFiresNoChangeEventsAndLeavesChangeTrackingAlone() {
        let model = NonNegative(["count": 1])
        model.set(["count": 2])
        var fired = 0
        model.on("change change:count") { _ in fired += 1 }
        #expect(model.set(["count": -1, "other": true]) == false)
        #expect(fired == 0)
        #expect(model.attributes == ["count": 2])
        #expect(model.changed == ["count": 2])
        #expect(model.previous("count") == 1)
    }

    @Test func isValidReportsFailureLikeASet() {
        let model = NonNegative(["count": -1])
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        #expect(model.isValid() == false)
        #expect(names == ["invalid", "error"])
        #expect(model.validationError?["count"] == ["must not be negative"])
        model.set(["count": 0])
        #expect(model.isValid())
        #expect(model.validationError == nil)
    }

    @Test func unsetAndClearAreValidatedByDefault() {
        let model = Validated(["name": "One", "other": 1])
        model.validator = { attributes, _ in
            attributes["name"] == nil ? ["name": ["is required"]] : nil
        }
        var invalid = 0
        model.on("invalid") { _ in invalid += 1 }
        #expect(model.unset("name") == false)
        #expect(model.clear() == false)
        #expect(model.unset("other"))
        #expect(model.attributes == ["name": "One"])
        #expect(invalid == 2)
        #expect(model.unset("name", validate: false))
        #expect(model.attributes.isEmpty)
    }

    @Test func constructionWithValidateCallsTheHandlerInTheOptions() {
        var handled: [(String, ValidationError)] = []
        let options = ChangeOptions(validate: true) { origin, errors, _ in handled.append((origin.cid, errors)) }
        let model = NonNegative(["count": -1], options: options)
        #expect(handled.count == 1)
        #expect(handled.first?.0 == model.cid)
        #expect(handled.first?.1 == ["count": ["must not be negative"]])
        #expect(model.attributes.isEmpty)
    }

    @Test func rejectedNestedSetInsideAChangeHandlerLeavesTheOuterChangeIntact() {
        let model = NonNegative(["count": 0])
        var nestedResult: Bool?
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.on("change:count") { _ in nestedResult = model.set(["count": -1]) }
        model.set(["count": 1])
        #expect(nestedResult == false)
        #expect(model.get("count") == 1)
        #expect(names == ["invalid", "error", "change:count", "change"])
        #expect(model.changed == ["count": 1])
    }

    @Test func emptyValidationErrorCountsAsValid() {
        let model = Validated()
        model.validator = { _, _ in ValidationError(messages: []) }  // `ValidationError()` is ambiguous
        #expect(model.set(["a": 1]))
        #expect(model.get("a") == 1)
        #expect(model.validationError == nil)
        #expect(model.isValid())
    }
}
