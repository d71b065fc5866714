import Foundation
import Keel
import Testing

/// A record with the value types Rails and Django REST framework send.
private final class Invoice: Model {
    static let issuedAt = AttributeKey<Date>("issued_at")
    static let total = AttributeKey<Decimal>("total")
    static let reference = AttributeKey<UUID>("reference")
    static let receipt = AttributeKey<URL>("receipt")
}

struct FoundationJSONRepresentableTests {
    @Test(arguments: [
        "2026-11-23T19:49:06.123456Z",
        "2026-11-23T19:49:06.250Z",
        "2026-11-23T19:49:06Z",
        "1969-12-31T23:59:59.999999Z",
        "2026-02-28T00:00:00.000001Z",
    ])
    func timestampsRoundTripExactly(text: String) throws {
        let date = try #require(Date(json: .string(text)))
        #expect(date.json == .string(text))
    }

    @Test func offsetsAreReadAndWrittenInUTC() throws {
        let date = try #require(Date(json: "2026-11-23T20:49:06.5+01:00"))
        #expect(date.json == "2026-11-23T19:49:06.500Z")
    }

    @Test func malformedDatesAreNil() {
        #expect(Date(json: "23/11/2026") == nil)
        #expect(Date(json: 1_700_000_000) == nil)
        #expect(Date(json: "2026-02-30T00:00:00Z") == nil)
    }

    @Test func decimalsKeepEveryDigit() throws {
        let total = try #require(Decimal(json: "12345678901234567890.125"))
        #expect(total.json == "12345678901234567890.125")
        #expect(Decimal(json: "12.50")?.json == "12.5")
        #expect(Decimal(json: 3) == 3)
        #expect(Decimal(json: 0.5) == Decimal(string: "0.5"))
        #expect(Decimal(json: "twelve") == nil)
        #expect(Decimal(json: true) == nil)
    }

    @Test func uuidsAreWrittenInLowercase() throws {
        let text = "0F8FAD5B-D9CB-469F-A165-70867728950E"
        let uuid = try #require(UUID(json: .string(text)))
        #expect(uuid.json == .string(text.lowercased()))
        #expect(UUID(json: "not-a-uuid") == nil)
    }

    @Test func urlsAreStrings() throws {
        let url = try #require(URL(json: "https://example.com/receipts/1.pdf"))
        #expect(url.json == "https://example.com/receipts/1.pdf")
        #expect(URL(json: 7) == nil)
    }

    @Test func typedKeysReadAndWriteFoundationValues() throws {
        let invoice = Invoice([
            "issued_at": "2026-11-23T19:49:06.123456Z",
            "total": "99.90",
            "reference": "0f8fad5b-d9cb-469f-a165-70867728950e",
            "receipt": "https://example.com/r/1.pdf",
        ])
        #expect(invoice[Invoice.total] == Decimal(string: "99.9"))
        #expect(invoice[Invoice.reference]?.uuidString == "0F8FAD5B-D9CB-469F-A165-70867728950E")
        #expect(invoice[Invoice.receipt]?.host() == "example.com")
        let issued = try #require(invoice[Invoice.issuedAt])
        invoice[Invoice.issuedAt] = issued.addingTimeInterval(1)
        #expect(invoice["issued_at"] == "2026-11-23T19:49:07.123456Z")
    }
}
