import Foundation
import Keel
import KeelTestServer
import Testing

/// XML property lists (`application/x-plist`) read and written with Foundation's
/// `PropertyListSerialization`: a user's codec for a server that does not speak JSON.
private struct PropertyListCodec: BodyCodec {
    var mediaTypes: [String] { ["application/x-plist"] }

    func encode(_ value: JSONValue) throws(BodyCodecError) -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: try Self.object(value), format: .xml, options: 0)
        } catch let error as BodyCodecError {
            throw error
        } catch {
            throw BodyCodecError("\(error)")
        }
    }

    func decode(_ data: Data, contentType: String) throws(BodyCodecError) -> JSONValue {
        do {
            return try Self.value(PropertyListSerialization.propertyList(from: data, format: nil))
        } catch let error as BodyCodecError {
            throw error
        } catch {
            throw BodyCodecError("not a property list: \(error)")
        }
    }

    private static func object(_ value: JSONValue) throws(BodyCodecError) -> Any {
        switch value {
        case .null: throw BodyCodecError("a property list has no null")
        case .bool(let bool): return bool
        case .int(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        case .array(let elements):
            var objects: [Any] = []
            for element in elements { objects.append(try object(element)) }
            return objects
        case .object(let members):
            var objects: [String: Any] = [:]
            for (key, member) in members { objects[key] = try object(member) }
            return objects
        }
    }

    private static func value(_ object: Any) throws(BodyCodecError) -> JSONValue {
        switch object {
        case let string as String: return .string(string)
        case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            default: return .int(number.intValue)
            }
        case let objects as [Any]:
            var elements: [JSONValue] = []
            for element in objects { elements.append(try value(element)) }
            return JSONValue(elements)
        case let objects as [String: Any]:
            var members = JSONObject()
            for (key, member) in objects { members[key] = try value(member) }
            return .object(members)
        default:
            throw BodyCodecError("a property list \(type(of: object)) has no JSON value")
        }
    }
}

/// A note the server keeps as an XML property list.
private final class PropertyListNote: Model {
    override class var urlRoot: String? { "/codecs/plist/notes" }
    override class var wireFormat: WireFormat {
        var format = WireFormat.plain
        format.bodyEncoding = .mediaType("application/x-plist")
        return format
    }
}

/// A note the server answers with `QueryDict.urlencode()`.
private final class FormNote: Model {
    override class var urlRoot: String? { "/codecs/form/notes" }
    override class var wireFormat: WireFormat {
        var format = WireFormat.plain
        format.bodyEncoding = .formURLEncoded
        return format
    }
}

// MARK: - Servers that do not answer in JSON

struct CodecServerTests {
    @Test func aDjangoFormAnswerIsReadIntoTheModel() async throws {
        let api = RESTSync(baseURL: try await TestServer.shared.baseURL)
        let note = FormNote(["title": "Oat milk & honey", "done": false])
        note.sync = api
        try await note.save()
        let id = try #require(note.id)
        #expect(note["title"] == "Oat milk & honey")

        let fetched = FormNote(["id": id])
        fetched.sync = api
        try await fetched.fetch()
        #expect(fetched["title"] == "Oat milk & honey")
        #expect(fetched["done"] == "false")
    }

    @Test func aPropertyListCodecRoundTripsThroughModel() async throws {
        var api = RESTSync(baseURL: try await TestServer.shared.baseURL)
        api.codecs.register(PropertyListCodec())
        let note = PropertyListNote(["title": "Milk", "done": false, "count": 2, "tags": ["dairy", "cold"]])
        note.sync = api
        try await note.save()
        let id = try #require(note.id?.intValue)

        note["title"] = "Oat milk"
        note["done"] = true
        try await note.save()

        let fetched = PropertyListNote(["id": .int(id)])
        fetched.sync = api
        try await fetched.fetch()
        #expect(fetched["title"] == "Oat milk")
        #expect(fetched["done"] == true)
        #expect(fetched["count"] == 2)
        #expect(fetched["tags"] == ["dairy", "cold"])
    }

    @Test func aPropertyListAnswerWithoutItsCodecKeepsTheText() async throws {
        let api = RESTSync(baseURL: try await TestServer.shared.baseURL)
        var request = SyncRequest(method: .create, url: URL(string: "/codecs/plist/notes")!)
        request.requestBody = .encoded(["title": "Milk"], mediaType: "application/x-plist")
        await #expect(throws: SyncError.unwritableBody(mediaType: "application/x-plist", reason: "no registered codec writes it")) {
            try await api.perform(request)
        }
        var withCodec = api
        withCodec.codecs.register(PropertyListCodec())
        let created = try await withCodec.perform(request)
        let id = try #require(created.body?["id"]?.intValue)
        await #expect {
            try await api.perform(SyncRequest(method: .read, url: URL(string: "/codecs/plist/notes/\(id)")!))
        } throws: { error in
            guard case SyncError.undecodableBody(200, let reason, let text) = error else { return false }
            return reason.contains("application/x-plist") && text.contains("<string>Milk</string>")
        }
    }
}
