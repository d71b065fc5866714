import Keel
import Testing

/// What printing a value shows: text for people, JSON text for debugging.
struct JSONValueDescriptionTests {
    @Test func aStringPrintsAsItsText() {
        let title: JSONValue = "Dune \"Messiah\""

        #expect(title.description == "Dune \"Messiah\"")
        #expect("Added \(title)" == "Added Dune \"Messiah\"")
        #expect(String(describing: title) == "Dune \"Messiah\"")
    }

    @Test func theReadmesPrintShowsTheTitleWithoutQuotes() {
        let note = Model(["title": "Dune"])
        var printed = ""

        print("Added", note["title"] ?? "", to: &printed)

        #expect(printed == "Added Dune\n")
    }

    @Test func otherValuesPrintAsJSONText() {
        #expect(JSONValue.int(3).description == "3")
        #expect(JSONValue.bool(true).description == "true")
        #expect(JSONValue.null.description == "null")
        #expect(JSONValue(["a": ["x", 1]]).description == #"{"a":["x",1]}"#)
    }

    @Test func debugDescriptionIsJSONTextForStringsToo() {
        let title: JSONValue = "Dune"

        #expect(title.debugDescription == #""Dune""#)
        #expect(String(reflecting: title) == #""Dune""#)
        #expect("\([title, 1] as [JSONValue])" == #"["Dune", 1]"#)
    }
}
