import Keel
import Testing

/// A wire format is a value: its copies share their settings until one changes, and two
/// formats are equal, and hash alike, when their settings are.
struct WireFormatValueTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let rails = WireFormat.rails
        var custom = rails
        custom.roles["password"] = .sendOnly
        custom.keys.names["body"] = "content"
        custom.root.responses = .required

        #expect(rails.roles["password"] == nil)
        #expect(rails.keys.names["body"] == nil)
        #expect(rails.root.responses == .optional)
        #expect(custom.roles["password"] == .sendOnly)
        #expect(custom.keys.names["body"] == "content")
        #expect(custom != rails)
        #expect(WireFormat.rails == rails)
    }

    @Test func formatsWithTheSameSettingsAreEqualAndHashAlike() {
        var first = WireFormat(keys: .snakeCase, pathSuffix: "/")
        let second = WireFormat(keys: .snakeCase, pathSuffix: "/")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)

        first.pathSuffix = ""
        #expect(first != second)
        first.pathSuffix = "/"
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func everySettingReadsBackWhatWasSet() {
        var format = WireFormat.plain
        format.updateVerb = .patch
        format.query = ["_format": "json"]
        format.bodyParameters = ["client": "ios"]
        format.bodyEncoding = .formURLEncoded
        format.dateFormats["dueOn"] = .calendarDate
        format.listKeyPath = "results"
        format.requiresListKeyPath = false
        format.recordKeyPath = "data"
        format.formNotation = .dotted
        format.mediaType = "application/vnd.api+json"

        #expect(format.updateVerb == .patch)
        #expect(format.query == ["_format": "json"])
        #expect(format.bodyParameters == ["client": "ios"])
        #expect(format.bodyEncoding == .formURLEncoded)
        #expect(format.dateFormats == ["dueOn": .calendarDate])
        #expect(format.listKeyPath == "results")
        #expect(format.requiresListKeyPath == false)
        #expect(format.recordKeyPath == "data")
        #expect(format.formNotation == .dotted)
        #expect(format.mediaType == "application/vnd.api+json")
        #expect(WireFormat.plain.updateVerb == .put)
        #expect(WireFormat.plain.query.isEmpty)
        #expect(WireFormat.plain.mediaType == nil)
    }
}
