import Foundation
import Keel
import Testing

/// How ``AtomicOperations`` builds its request and reads the answer, against a scripted
/// server: the order and `lid`s of the operations, results that leave out removals, and
/// error objects that point into an operation.
@MainActor
struct AtomicOperationsTests {
    final class Person: Model {
        override class var urlRoot: String? { "/people" }
        override class var wireFormat: WireFormat { .jsonAPI }
    }

    final class Post: Model {
        static let author = BelongsTo<Person>("author")
        override class var urlRoot: String? { "/posts" }
        override class var wireFormat: WireFormat { .jsonAPI }
        override class var relations: [any Relation] { [author] }
    }

    final class Titled: Model {
        override class var wireFormat: WireFormat { .jsonAPI }
        override class var urlRoot: String? { "/titled" }
        override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
            attributes["title"] == nil ? ["title": ["is required"]] : nil
        }
    }

    private let operations = AtomicOperations(endpoint: URL(string: "/operations"))

    /// The server's answer to each `add`: its data with an id, and linkage by `lid` replaced by
    /// the id given to that `lid`, as a server does.
    nonisolated private static func created(_ request: SyncRequest) -> SyncResponse {
        let sent = request.body?["atomic:operations"]?.arrayValue ?? []
        var ids: [JSONValue: JSONValue] = [:]
        let results: [JSONValue] = sent.enumerated().map { index, operation in
            guard operation["op"] == "add", var data = operation["data"]?.objectValue else { return [:] }
            let id = JSONValue.string(String(100 + index))
            if let lid = data["lid"] { ids[lid] = id }
            data["id"] = id
            data["lid"] = nil
            var relationships = data["relationships"]?.objectValue ?? [:]
            for (key, relationship) in relationships {
                guard let lid = relationship["data"]?["lid"], let type = relationship["data"]?["type"] else { continue }
                relationships[key] = ["data": ["type": type, "id": ids[lid] ?? nil]]
            }
            if !relationships.isEmpty { data["relationships"] = .object(relationships) }
            return ["data": .object(data)]
        }
        return SyncResponse(status: 200, body: ["atomic:results": .array(results)])
    }

    @Test func newParentsGoFirstAndChildrenNameThemByLid() async throws {
        let server = ScriptedSync(Self.created)
        let author = Person(["name": "Ann"])
        let post = Post(["title": "Hi"])
        for model in [author, post] as [Model] { model.sync = server }
        post[Post.author] = author

        try await operations.save([post, author])

        let sent = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(sent.method == .create)
        #expect(sent.url.path == "/operations")
        #expect(sent.headers["Accept"] == AtomicOperations.mediaType)
        let entries = sent.body?["atomic:operations"]?.arrayValue ?? []
        #expect(entries.map { $0["op"] } == ["add", "add"])
        #expect(entries[0]["data"]?["lid"] == .string(author.cid))
        #expect(entries[0]["data"]?["type"] == "people")
        #expect(entries[1]["data"]?["relationships"]?["author"]?["data"] == ["type": "people", "lid": .string(author.cid)])
        #expect(author.id == 100 && post.id == 101)
    }

    @Test func resultsWithoutTheRemovalsArePairedWithTheSaves() async throws {
        let server = ScriptedSync { _ in
            SyncResponse(
                status: 200,
                body: ["atomic:results": [["data": ["type": "people", "id": "1", "attributes": ["name": "Server"]]]]]
            )
        }
        let kept = Person(["id": 1, "name": "Local"])
        let gone = Person(["id": 2, "name": "Gone"])
        for model in [kept, gone] { model.sync = server }
        var destroyed = false
        gone.on("destroy") { _ in destroyed = true }

        try await operations.save([kept], destroying: [gone])

        let entries = server.requests.first?.body?["atomic:operations"]?.arrayValue ?? []
        #expect(entries.map { $0["op"] } == ["update", "remove"])
        #expect(entries[1]["ref"] == ["type": "people", "id": "2"])
        #expect(kept["name"] == "Server")
        #expect(destroyed)
    }

    @Test func anErrorPointingIntoAnOperationReachesThatModel() async throws {
        let body: JSONValue = [
            "errors": [["detail": "can't be blank", "source": ["pointer": "/atomic:operations/1/data/attributes/title"]]]
        ]
        let server = ScriptedSync(failing: .httpStatus(422, body: body))
        let author = Person(["name": "Ann"])
        let post = Post(["title": ""])
        for model in [author, post] as [Model] { model.sync = server }
        var invalid: [String] = []
        for model in [author, post] as [Model] { model.on("invalid") { event in invalid.append(event.model?.cid ?? "") } }

        await #expect(throws: SyncError.validationFailed(["title": ["can't be blank"]], status: 422)) {
            try await operations.save([author, post])
        }

        #expect(post.validationError?["title"] == ["can't be blank"])
        #expect(author.validationError == nil)
        #expect(invalid == [post.cid])
        #expect(author.isNew && post.isNew)
    }

    @Test func anInvalidModelStopsTheCallBeforeAnythingIsSent() async throws {
        let server = ScriptedSync(Self.created)
        let model = Titled()
        model.sync = server

        await #expect(throws: SyncError.self) { try await operations.save([model]) }
        #expect(server.requests.isEmpty)
    }

    @Test func newModelsToDestroyAreDestroyedLocallyWithoutARequest() async throws {
        let server = ScriptedSync(Self.created)
        let draft = Person(["name": "Draft"])
        draft.sync = server
        var destroyed = false
        draft.on("destroy") { _ in destroyed = true }

        #expect(try await operations.save([], destroying: [draft]) == .oneByOne)
        #expect(destroyed)
        #expect(server.requests.isEmpty)
    }

    @Test func aServerWithoutTheExtensionGetsOneRequestPerModel() async throws {
        let server = ScriptedSync { request throws(SyncError) in
            if request.url.path == "/operations" { throw .httpStatus(415, body: nil) }
            return SyncResponse(status: 201, body: ["data": ["type": "people", "id": "7"]])
        }
        let author = Person(["name": "Ann"])
        author.sync = server

        #expect(try await operations.save([author]) == .oneByOne)
        #expect(server.requests.map(\.url.path) == ["/operations", "/people"])
        #expect(author.id == 7)
    }
}
