import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Backbone's sync.js fixture: a `/library` collection that has just created "The Tempest"
/// (`library.create(attrs, {wait: false})`), talking to a recording transport.
private struct Library {
    static let attributes: Attributes = ["title": "The Tempest", "author": "Bill Shakespeare", "length": 123]

    let transport: RecordingTransport
    let library: Collection<Model>
    let book: Model

    init(emulateHTTP: Bool = false, emulateJSON: Bool = false) async throws {
        transport = RecordingTransport()
        library = Collection<Model>(
            url: "/library",
            sync: RESTSync(
                baseURL: SyncFixture.base,
                emulateHTTP: emulateHTTP,
                emulateJSON: emulateJSON,
                transport: transport
            )
        )
        book = try await library.create(Self.attributes)
    }

    var last: URLRequest? { transport.lastRequest }
}

private func url(_ path: String) -> String {
    SyncFixture.base.absoluteString + path
}

// MARK: - Port of Backbone's test/sync.js

struct RESTSyncBackbonePortTests {
    // 1 "read"
    @Test func read() async throws {
        let fixture = try await Library()
        fixture.transport.enqueue(.json("[]"))
        try await fixture.library.fetch()
        let request = try #require(fixture.last)
        #expect(request.httpMethod == "GET")
        #expect(SyncFixture.text(request.url) == url("/library"))
        #expect(request.recordedHeader("Accept") == BodyCodecs.standard.acceptHeader)
        #expect(request.httpBody == nil)
        #expect(request.recordedHeader("Content-Type") == nil)
    }

    // 2 "passing data"
    @Test func passingData() async throws {
        let fixture = try await Library()
        fixture.transport.enqueue(.json("[]"))
        try await fixture.library.fetch(options: SyncOptions(query: ["a": "a", "one": "1"]))
        #expect(SyncFixture.text(fixture.last?.url) == url("/library?a=a&one=1"))
        #expect(fixture.last?.httpBody == nil)
    }

    // 3 "create"
    @Test func create() async throws {
        let fixture = try await Library()
        let request = try #require(fixture.last)
        #expect(request.httpMethod == "POST")
        #expect(SyncFixture.text(request.url) == url("/library"))
        #expect(request.recordedHeader("Content-Type") == "application/json")
        #expect(request.recordedJSON == .object(Library.attributes))
    }

    // 4 "update"
    @Test func update() async throws {
        let fixture = try await Library()
        try await fixture.book.save(["id": "1-the-tempest", "author": "William Shakespeare"])
        let request = try #require(fixture.last)
        #expect(request.httpMethod == "PUT")
        #expect(SyncFixture.text(request.url) == url("/library/1-the-tempest"))
        #expect(request.recordedHeader("Content-Type") == "application/json")
        #expect(
            request.recordedJSON == [
                "id": "1-the-tempest", "title": "The Tempest", "author": "William Shakespeare", "length": 123,
            ]
        )
        #expect(request.recordedHeader("X-HTTP-Method-Override") == nil)
    }

    // 5 "update with emulateHTTP and emulateJSON"
    @Test func updateWithEmulateHTTPAndEmulateJSON() async throws {
        let fixture = try await Library(emulateHTTP: true, emulateJSON: true)
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "POST")
        #expect(request.recordedHeader("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.recordedHeader("X-HTTP-Method-Override") == "PUT")
        let form = request.recordedFormFields
        #expect(form["_method"] == "PUT")
        let model = try #require(form["model"].flatMap(RecordedJSON.parse))
        #expect(model == ["id": "2-the-tempest", "title": "The Tempest", "author": "Tim Shakespeare", "length": 123])
    }

    // 6 "update with just emulateHTTP"
    @Test func updateWithJustEmulateHTTP() async throws {
        let fixture = try await Library(emulateHTTP: true)
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "POST")
        #expect(request.recordedHeader("Content-Type") == "application/json")
        #expect(request.recordedHeader("X-HTTP-Method-Override") == "PUT")
        #expect(
            request.recordedJSON == [
                "id": "2-the-tempest", "title": "The Tempest", "author": "Tim Shakespeare", "length": 123,
            ]
        )
    }

    // 7 "update with just emulateJSON"
    @Test func updateWithJustEmulateJSON() async throws {
        let fixture = try await Library(emulateJSON: true)
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "PUT")
        #expect(request.recordedHeader("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.recordedHeader("X-HTTP-Method-Override") == nil)
        let form = request.recordedFormFields
        #expect(form["_method"] == nil)
        #expect(
            form["model"].flatMap(RecordedJSON.parse)
                == ["id": "2-the-tempest", "title": "The Tempest", "author": "Tim Shakespeare", "length": 123]
        )
    }

    // 8 "read model"
    @Test func readModel() async throws {
        let fixture = try await Library()
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        try await fixture.book.fetch()
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
    }

    // 9 "destroy"
    @Test func destroy() async throws {
        let fixture = try await Library()
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        fixture.transport.enqueue(.empty())
        try await fixture.book.destroy(wait: true)
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "DELETE")
        #expect(request.httpBody == nil)
    }

    // 10 "destroy with emulateHTTP"
    @Test func destroyWithEmulateHTTP() async throws {
        let fixture = try await Library(emulateHTTP: true, emulateJSON: true)
        try await fixture.book.save(["id": "2-the-tempest", "author": "Tim Shakespeare"])
        fixture.transport.enqueue(.empty())
        try await fixture.book.destroy()
        let request = try #require(fixture.last)
        #expect(SyncFixture.text(request.url) == url("/library/2-the-tempest"))
        #expect(request.httpMethod == "POST")
        #expect(request.recordedFormFields == ["_method": "DELETE"])
        #expect(request.recordedHeader("X-HTTP-Method-Override") == "DELETE")
    }

    // model.js "save with wait and supplied id", on the wire.
    @Test func waitSaveWithSuppliedIDPutsToThatID() async throws {
        let transport = RecordingTransport()
        let model = Model()
        model.urlRoot = "/collection"
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        try await model.save(["id": 42], wait: true)
        #expect(transport.lastRequest?.httpMethod == "PUT")
        #expect(SyncFixture.text(transport.lastRequest?.url) == url("/collection/42"))
        #expect(transport.lastRequest?.recordedJSON == ["id": 42])
    }

    // 11 "urlError"
    @Test func urlError() async throws {
        let transport = RecordingTransport()
        let model = Model()
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        await #expect {
            try await model.fetch()
        } throws: { error in
            guard case SyncError.missingURL = error else { return false }
            return true
        }
        #expect(transport.requests.isEmpty)

        try await model.fetch(options: SyncOptions(url: "/one/two"))
        #expect(SyncFixture.text(transport.lastRequest?.url) == url("/one/two"))
    }

    // 12 "#1052 - `options` is optional."
    @Test func optionsAreOptional() async throws {
        let transport = RecordingTransport()
        let api = RESTSync(baseURL: SyncFixture.base, transport: transport)
        _ = try await api.perform(SyncRequest(method: .create, url: SyncFixture.url("/library"), body: ["a": 1]))
        #expect(transport.lastRequest?.httpMethod == "POST")
        #expect(transport.lastRequest?.recordedJSON == ["a": 1])
    }

    // 13 "Backbone.ajax": the pluggable transport receives the request.
    @Test func pluggableTransportReceivesTheRequest() async throws {
        let transport = RecordingTransport()
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        try await model.fetch()
        #expect(transport.requests.count == 1)
        #expect(SyncFixture.text(transport.lastRequest?.url) == url("/test/1"))
    }

    // 14 "Call provided error callback on error."
    @Test func failureHandlerIsCalledOnError() async throws {
        let transport = RecordingTransport(.respond(.json(#"{"error": "boom"}"#, status: 500)))
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        var handled: [SyncError] = []
        await #expect(throws: SyncError.httpStatus(500, body: ["error": "boom"])) {
            try await model.fetch(options: SyncOptions(onFailure: { handled.append($0) }))
        }
        #expect(handled == [.httpStatus(500, body: ["error": "boom"])])
    }

    // 15, 16 "Use Backbone.emulateHTTP/emulateJSON as default": the backend's settings are the
    // default, read on every call; a request's own flags override them.
    @Test func emulationSettingsAreTheDefaultAndRequestsOverrideThem() async throws {
        let transport = RecordingTransport()
        var api = RESTSync(baseURL: SyncFixture.base, emulateHTTP: true, emulateJSON: true, transport: transport)
        let model = Model(["id": 1, "a": 1])
        model.urlRoot = "/test"
        model.sync = api

        try await model.save()
        #expect(transport.lastRequest?.httpMethod == "POST")
        #expect(transport.lastRequest?.recordedFormFields["_method"] == "PUT")

        try await model.save(options: SyncOptions(emulateHTTP: false, emulateJSON: false))
        #expect(transport.lastRequest?.httpMethod == "PUT")
        #expect(transport.lastRequest?.recordedJSON == ["id": 1, "a": 1])

        api.emulateHTTP = false
        api.emulateJSON = false
        model.sync = api
        try await model.save()
        #expect(transport.lastRequest?.httpMethod == "PUT")
        try await model.save(options: SyncOptions(emulateHTTP: true))
        #expect(transport.lastRequest?.httpMethod == "POST")
        #expect(transport.lastRequest?.recordedHeader("X-HTTP-Method-Override") == "PUT")
        #expect(transport.lastRequest?.recordedHeader("Content-Type") == "application/json")
        try await model.save(options: SyncOptions(emulateJSON: true))
        #expect(transport.lastRequest?.httpMethod == "PUT")
        #expect(transport.lastRequest?.recordedHeader("Content-Type") == "application/x-www-form-urlencoded")
    }

    // 17 "#1756 - Call user provided beforeSend function": per-request headers and the override
    // header are both sent.
    @Test func requestHeadersAndMethodOverrideTogether() async throws {
        let transport = RecordingTransport()
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = RESTSync(baseURL: SyncFixture.base, emulateHTTP: true, transport: transport)
        transport.enqueue(.empty())
        try await model.destroy(options: SyncOptions(headers: ["X-Custom": "yes"]))
        #expect(transport.lastRequest?.httpMethod == "POST")
        #expect(transport.lastRequest?.recordedHeader("X-HTTP-Method-Override") == "DELETE")
        #expect(transport.lastRequest?.recordedHeader("X-Custom") == "yes")
    }

    // 18 "#2928 - Pass along `textStatus` and `errorThrown`": the error event carries the typed
    // error and the request.
    @Test func errorEventCarriesTheErrorAndTheRequest() async throws {
        let transport = RecordingTransport(.fail(URLError(.notConnectedToInternet)))
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        let log = SyncEventLog()
        log.watch(model, events: "error")
        await #expect(throws: SyncError.self) { try await model.fetch() }
        let event = try #require(log.events.first)
        guard case .transport(let message)? = event.syncError else {
            Issue.record("expected a transport error, got \(String(describing: event.error))")
            return
        }
        #expect(!message.isEmpty)
        #expect(event.request?.method == .read)
        #expect(event.request?.path == "/test/1")
    }
}

// MARK: - Request shape

struct RESTSyncRequestShapeTests {
    private let api = RESTSync(baseURL: SyncFixture.base, transport: RecordingTransport())

    @Test(arguments: [
        (SyncMethod.create, "POST", true),
        (.read, "GET", false),
        (.update, "PUT", true),
        (.patch, "PATCH", true),
        (.delete, "DELETE", false),
    ])
    func methodMap(method: SyncMethod, verb: String, hasBody: Bool) throws {
        #expect(method.httpMethod == verb)
        let request = try api.urlRequest(
            for: SyncRequest(method: method, url: SyncFixture.url("/notes/1"), body: hasBody ? ["a": 1] : nil)
        )
        #expect(request.httpMethod == verb)
        #expect(request.recordedHeader("X-HTTP-Method-Override") == nil)
        #expect((request.httpBody != nil) == hasBody)
        #expect(request.recordedHeader("Content-Type") == (hasBody ? "application/json" : nil))
        if hasBody { #expect(request.recordedJSON == ["a": 1]) }
    }

    @Test(arguments: SyncMethod.allCases)
    func emulateHTTPTunnelsOnlyPutPatchAndDelete(method: SyncMethod) throws {
        var tunnelling = api
        tunnelling.emulateHTTP = true
        let request = try tunnelling.urlRequest(for: SyncRequest(method: method, url: SyncFixture.url("/notes/1")))
        let tunnels = [SyncMethod.update, .patch, .delete].contains(method)
        #expect(request.httpMethod == (tunnels ? "POST" : method.httpMethod))
        #expect(request.recordedHeader("X-HTTP-Method-Override") == (tunnels ? method.httpMethod : nil))
    }

    @Test func emulateJSONCreateSendsTheModelField() throws {
        var form = api
        form.emulateJSON = true
        let request = try form.urlRequest(
            for: SyncRequest(method: .create, url: SyncFixture.url("/notes"), body: ["title": "a & b = c"])
        )
        #expect(request.httpMethod == "POST")
        #expect(request.recordedHeader("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.recordedFormFields.keys.sorted() == ["model"])
        #expect(request.recordedFormFields["model"].flatMap(RecordedJSON.parse) == ["title": "a & b = c"])
    }

    @Test func emulateJSONReadSendsNoBody() throws {
        var form = api
        form.emulateJSON = true
        let request = try form.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url("/notes")))
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
    }

    @Test func defaultAndPerRequestHeaders() throws {
        var withHeaders = api
        withHeaders.headers = ["Authorization": "Bearer t", "X-Client": "keel"]
        let request = try withHeaders.urlRequest(
            for: SyncRequest(
                method: .read,
                url: SyncFixture.url("/notes"),
                headers: ["X-Client": "test", "X-Trace": "1"]
            )
        )
        #expect(request.recordedHeader("Authorization") == "Bearer t")
        #expect(request.recordedHeader("X-Client") == "test")
        #expect(request.recordedHeader("X-Trace") == "1")
        #expect(request.recordedHeader("Accept") == BodyCodecs.standard.acceptHeader)
    }

    @Test func timeoutsComeFromTheBackendOrTheRequest() throws {
        #expect(try api.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url("/a"))).timeoutInterval == 60)
        var quick = api
        quick.timeout = .milliseconds(1500)
        #expect(
            try quick.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url("/a"))).timeoutInterval == 1.5
        )
        let own = SyncRequest(method: .read, url: SyncFixture.url("/a"), timeout: .seconds(2))
        #expect(try quick.urlRequest(for: own).timeoutInterval == 2)
    }

    @Test func optionsTimeoutReachesTheURLRequest() async throws {
        let transport = RecordingTransport()
        let model = Model(["id": 1])
        model.urlRoot = "/a"
        model.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        try await model.fetch(options: SyncOptions(timeout: .milliseconds(250)))
        #expect(transport.lastRequest?.timeoutInterval == 0.25)
    }

    @Test func queryValuesArePercentEncoded() throws {
        let request = try api.urlRequest(
            for: SyncRequest(
                method: .read,
                url: SyncFixture.url("/search"),
                query: [URLQueryItem(name: "q", value: "a&b=c+d e é"), URLQueryItem(name: "x y", value: "1")]
            )
        )
        let url = try #require(request.url)
        #expect(url.query(percentEncoded: true) == "q=a%26b%3Dc%2Bd%20e%20%C3%A9&x%20y=1")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(items == [URLQueryItem(name: "q", value: "a&b=c+d e é"), URLQueryItem(name: "x y", value: "1")])
    }

    @Test func queryIsAppendedToAnExistingQuery() throws {
        let request = try api.urlRequest(
            for: SyncRequest(
                method: .read,
                url: SyncFixture.url("/notes?page=2"),
                query: [URLQueryItem(name: "a", value: "1")]
            )
        )
        #expect(SyncFixture.text(request.url) == url("/notes?page=2&a=1"))
    }

    @Test func relativeURLWithoutBaseURLIsMissingURL() async {
        let transport = RecordingTransport()
        let api = RESTSync(transport: transport)
        #expect {
            try api.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url("/notes")))
        } throws: { error in
            guard case SyncError.missingURL = error else { return false }
            return true
        }
        await #expect(throws: SyncError.self) {
            try await api.perform(SyncRequest(method: .read, url: SyncFixture.url("/notes")))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func absoluteRequestURLIgnoresTheBaseURL() throws {
        let request = try api.urlRequest(
            for: SyncRequest(method: .read, url: SyncFixture.url("http://other.test:8080/x"))
        )
        #expect(SyncFixture.text(request.url) == "http://other.test:8080/x")
    }

    @Test(arguments: ["https://example.test/v1", "https://example.test/v1/"])
    func baseURLPathIsKeptWithOneSlash(base: String) throws {
        let api = RESTSync(baseURL: URL(string: base), transport: RecordingTransport())
        let request = try api.urlRequest(for: SyncRequest(method: .read, url: SyncFixture.url("/notes/a%2Fb")))
        #expect(SyncFixture.text(request.url) == "https://example.test/v1/notes/a%2Fb")
    }
}
