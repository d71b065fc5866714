import Foundation
import Keel
import Testing

private let paris = TimeZone(identifier: "Europe/Paris") ?? .current

/// Per-attribute date formats beside ISO 8601 (NSRails' `dateFormat`): each format reads and
/// writes its values, a wire format converts them both ways so that typed `Date` access keeps
/// working, and a value that does not fit is a typed error that loses nothing.
@MainActor
struct DateFormatTests {
    private static let noon = Date(timeIntervalSince1970: 1_795_867_200)  // 2026-11-28T12:00:00Z

    final class Shipment: Model {
        static let dueOn = AttributeKey<Date>("dueOn")
        static let seenAt = AttributeKey<Date>("seenAt")
        static let pingedAt = AttributeKey<Date>("pingedAt")
        static let shippedAt = AttributeKey<Date>("shippedAt")
        override class var urlRoot: String? { "/shipments" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.rails
            format.dateFormats = [
                "dueOn": .calendarDate, "seenAt": .secondsSince1970, "pingedAt": .millisecondsSince1970,
                "shippedAt": .pattern("dd/MM/yyyy HH:mm", timeZone: paris),
            ]
            return format
        }
    }

    final class Crate: Model {
        static let shipments = HasMany<Shipment>("shipments", encoding: .nestedAttributes)
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [shipments] }
    }

    private static let wireRecord: JSONValue = [
        "shipment": [
            "id": 1, "due_on": "2026-11-28", "seen_at": 1_795_867_200, "pinged_at": 1_795_867_200_250,
            "shipped_at": "28/11/2026 13:00", "created_at": "2026-11-01T08:00:00Z",
        ]
    ]

    @Test func eachFormatReadsAndWritesItsValues() throws {
        #expect(try DateFormat.calendarDate.date(from: "2026-11-28") == Date(timeIntervalSince1970: 1_795_824_000))
        #expect(DateFormat.calendarDate.value(for: Self.noon) == "2026-11-28")
        #expect(try DateFormat.secondsSince1970.date(from: 1_795_867_200) == Self.noon)
        #expect(try DateFormat.secondsSince1970.date(from: "1795867200") == Self.noon)
        #expect(DateFormat.secondsSince1970.value(for: Self.noon) == 1_795_867_200)
        #expect(DateFormat.secondsSince1970.value(for: Date(timeIntervalSince1970: 0.5)) == 0.5)
        #expect(try DateFormat.millisecondsSince1970.date(from: 1_795_867_200_000) == Self.noon)
        #expect(DateFormat.millisecondsSince1970.value(for: Self.noon) == 1_795_867_200_000)
        let pattern = DateFormat.pattern("dd/MM/yyyy HH:mm", timeZone: paris)
        #expect(try pattern.date(from: "28/11/2026 13:00") == Self.noon)
        #expect(pattern.value(for: Self.noon) == "28/11/2026 13:00")
        #expect(try DateFormat.iso8601.date(from: "2026-11-28T13:00:00+01:00") == Self.noon)
        #expect(DateFormat.iso8601.value(for: Self.noon) == "2026-11-28T12:00:00Z")
    }

    @Test func aValueThatDoesNotFitIsATypedErrorSayingWhy() {
        let cases: [(DateFormat, JSONValue)] = [
            (.calendarDate, "28/11/2026"), (.calendarDate, "2026-11-31"), (.calendarDate, 20_261_128),
            (.secondsSince1970, "soon"), (.secondsSince1970, true), (.millisecondsSince1970, [1]),
            (.pattern("dd/MM/yyyy"), "2026-11-28"), (.iso8601, "2026-11-28"),
        ]
        for (format, value) in cases {
            #expect(throws: DateFormatError(value: value, format: format)) { try format.date(from: value) }
        }
        let error = DateFormatError(value: "28/11/2026", format: .calendarDate)
        #expect(error.description == #""28/11/2026" is not a date in the format yyyy-MM-dd"#)
    }

    @Test func aResponseIsReadIntoISO8601ForTypedDates() throws {
        let shipment = Shipment(try WireFormat.decoded(Self.wireRecord))
        #expect(shipment["dueOn"] == "2026-11-28T00:00:00Z")
        #expect(shipment[Shipment.dueOn] == Date(timeIntervalSince1970: 1_795_824_000))
        #expect(shipment[Shipment.seenAt] == Self.noon)
        #expect(shipment[Shipment.pingedAt] == Self.noon.addingTimeInterval(0.25))
        #expect(shipment[Shipment.shippedAt] == Self.noon)
        #expect(shipment["createdAt"] == "2026-11-01T08:00:00Z")
    }

    @Test func typedDatesAreSentInTheirAttributesFormats() throws {
        let shipment = Shipment(["id": 1])
        shipment[Shipment.dueOn] = Self.noon
        shipment[Shipment.seenAt] = Self.noon
        shipment[Shipment.pingedAt] = Self.noon
        shipment[Shipment.shippedAt] = Self.noon
        shipment["title"] = "Box"
        #expect(
            Shipment.wireFormat.encode(shipment, for: .update) == [
                "shipment": [
                    "due_on": "2026-11-28", "seen_at": 1_795_867_200, "pinged_at": 1_795_867_200_000,
                    "shipped_at": "28/11/2026 13:00", "title": "Box",
                ]
            ]
        )
    }

    @Test func aValueAlreadyInTheServersFormatAndNullAreSentAsTheyAre() {
        let shipment = Shipment(["id": 1, "dueOn": "2026-12-01", "seenAt": nil])
        #expect(
            Shipment.wireFormat.encode(shipment, for: .update) == ["shipment": ["due_on": "2026-12-01", "seen_at": nil]]
        )
    }

    @Test func aFetchedDateThatDoesNotFitFailsTheFetchAndKeepsTheModel() async throws {
        let shipment = Shipment(["id": 1, "title": "Box"])
        shipment.sync = ScriptedSync(always: SyncResponse(body: ["shipment": ["id": 1, "due_on": "next week"]]))
        await #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "shipment.due_on",
                reason: #""next week" is not a date in the format yyyy-MM-dd"#
            )
        ) { try await shipment.fetch() }
        #expect(shipment.attributes == ["id": 1, "title": "Box"])
    }

    @Test func aListWithADateThatDoesNotFitNamesTheRecord() {
        let list: JSONValue = ["shipments": [["id": 1, "seen_at": 1], ["id": 2, "seen_at": "later"]]]
        #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "shipments[1].seen_at",
                reason: #""later" is not a date in the format seconds since 1970"#
            )
        ) { try Shipment.wireFormat.decodeList(list, for: Shipment.self) }
    }

    @Test func aNestedRecordSendsItsDatesInItsClasssFormats() {
        let crate = Crate(["label": "A"])
        crate[Crate.shipments].add(Shipment(["dueOn": "2026-12-24T00:00:00Z"]))
        #expect(
            WireFormat.rails.encode(crate, for: .create)?["crate"]?["shipments_attributes"] == [["due_on": "2026-12-24"]]
        )
    }
}

extension WireFormat {
    /// A shipment record read by its class's format.
    fileprivate static func decoded(_ body: JSONValue) throws -> Attributes {
        try DateFormatTests.Shipment.wireFormat.decode(body, for: DateFormatTests.Shipment.self)
    }
}
