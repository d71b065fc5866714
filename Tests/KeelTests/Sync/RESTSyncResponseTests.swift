import Foundation
import Keel
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Responses and errors

struct RESTSyncResponseTests {
    private func perform(
        _ outcome: RecordingTransport.Outcome,
        method: SyncMethod = .read
    ) async throws(SyncError) -> SyncResponse {
        let api = RESTSync(baseURL: SyncFixture.base, transport: RecordingTransport(outcome))
        return try await api.perform(SyncRequest(method: method, url: SyncFixture.url("/notes/1")))
    }

    @Test func jsonBodyIsDecodedAndHeadersAreLowerCased() async throws {
        let response = try await perform(
            .respond(.json(#"{"id": 1, "tags": ["a"], "done": false, "score": 1.5}"#, headers: ["X-Total-Count": "3"]))
        )
        #expect(response.status == 200)
        #expect(response.body == ["id": 1, "tags": ["a"], "done": false, "score": 1.5])
        #expect(response.headers["x-total-count"] == "3")
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test func nestedObjectsAreDecoded() async throws {
        let response = try await perform(
            .respond(.json(#"{"id": 1, "author": {"name": "Ada"}, "list": [{"a": {"b": 2}}]}"#))
        )
        #expect(response.body == ["id": 1, "author": ["name": "Ada"], "list": [["a": ["b": 2]]]])
    }

    @Test func created201() async throws {
        let response = try await perform(.respond(.json(#"{"id": 5}"#, status: 201)), method: .create)
        #expect(response.status == 201)
        #expect(response.body == ["id": 5])
    }

    @Test func empty204BodyIsNil() async throws {
        let response = try await perform(.respond(.empty()), method: .delete)
        #expect(response.status == 204)
        #expect(response.body == nil)
        #expect(response.isSuccess)
    }

    @Test func whitespaceBodyIsNil() async throws {
        let response = try await perform(.respond(.text(" \n\t", status: 200, contentType: "application/json")))
        #expect(response.body == nil)
    }

    @Test func nonJSONErrorBodyIsKeptAsAString() async {
        await #expect(throws: SyncError.httpStatus(500, body: .string("<h1>Server Error (500)</h1>"))) {
            try await perform(.respond(.text("<h1>Server Error (500)</h1>", status: 500)))
        }
    }

    @Test func undecodableSuccessBody() async {
        await #expect {
            try await perform(.respond(.json(#"{"id": 1, "title": "#)))
        } throws: { error in
            guard case SyncError.undecodableBody(status: 200, _, let text) = error else { return false }
            return text == #"{"id": 1, "title": "#
        }
    }

    @Test func aPlainTextSuccessBodyIsItsText() async throws {
        let response = try await perform(
            .respond(.text("kD7x-token", status: 200, contentType: "text/plain; charset=UTF-8"))
        )
        #expect(response.body == "kD7x-token")
    }

    @Test func anHTMLSuccessBodyIsStillUndecodable() async {
        await #expect {
            try await perform(.respond(.text("<p>Sign in</p>", status: 200, contentType: "text/html")))
        } throws: { error in
            guard case SyncError.undecodableBody(status: 200, _, _) = error else { return false }
            return true
        }
    }

    @Test func notFoundWithJSONBody() async {
        await #expect(throws: SyncError.httpStatus(404, body: ["error": "not found"])) {
            try await perform(.respond(.json(#"{"error": "not found"}"#, status: 404)))
        }
    }

    @Test func railsValidationErrors422() async {
        await #expect(throws: SyncError.validationFailed(["title": ["can't be blank"]], status: 422)) {
            try await perform(.respond(.json(#"{"title": ["can't be blank"]}"#, status: 422)), method: .create)
        }
    }

    @Test func djangoRESTFrameworkValidationErrors400() async {
        await #expect(throws: SyncError.validationFailed(["name": ["This field may not be blank."]], status: 400)) {
            try await perform(
                .respond(.json(#"{"name": ["This field may not be blank."]}"#, status: 400)),
                method: .create
            )
        }
    }

    @Test func badRequestWithoutFieldErrorsIsAnHTTPStatus() async {
        await #expect(throws: SyncError.httpStatus(400, body: ["status": 400])) {
            try await perform(.respond(.json(#"{"status": 400}"#, status: 400)))
        }
    }

    @Test(arguments: [
        (URLError.Code.timedOut, SyncError.timedOut),
        (.cancelled, .cancelled),
    ])
    func urlErrorsMapToTypedErrors(code: URLError.Code, expected: SyncError) async {
        await #expect(throws: expected) { try await perform(.fail(URLError(code))) }
    }

    @Test(arguments: [URLError.Code.cannotConnectToHost, .notConnectedToInternet, .networkConnectionLost])
    func connectionFailuresAreTransportErrors(code: URLError.Code) async {
        await #expect {
            try await perform(.fail(URLError(code)))
        } throws: { error in
            guard case SyncError.transport = error else { return false }
            return true
        }
    }

    @Test func cancellationErrorIsCancelled() async {
        await #expect(throws: SyncError.cancelled) { try await perform(.cancel) }
    }

    @Test func nonHTTPResponseIsATransportError() async {
        await #expect {
            try await perform(.notHTTP)
        } throws: { error in
            guard case SyncError.transport = error else { return false }
            return true
        }
    }

    @Test func errorStatusReachesModelErrorObservers() async throws {
        let transport = RecordingTransport(.respond(.json(#"{"title": ["can't be blank"]}"#, status: 422)))
        let note = Model(["title": ""])
        note.urlRoot = "/notes"
        note.sync = RESTSync(baseURL: SyncFixture.base, transport: transport)
        let log = SyncEventLog()
        log.watch(note, events: "error")
        await #expect(throws: SyncError.validationFailed(["title": ["can't be blank"]], status: 422)) {
            try await note.save()
        }
        #expect(log.events.first?.syncError == .validationFailed(["title": ["can't be blank"]], status: 422))
        #expect(note.isNew)
    }
}
