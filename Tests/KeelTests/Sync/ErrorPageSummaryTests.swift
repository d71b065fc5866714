import Foundation
import Keel
import KeelTestServer
import Testing

/// NSRails' `succinctErrorMessages`: an HTML error page (a framework's debug or 500 page, a
/// proxy's) is summarized in the error's description by its first heading or title and its
/// first `<pre>` line, cut to 160 characters, while the whole page stays in the error's body.
struct ErrorPageSummaryTests {
    static let djangoDebugPage = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta http-equiv="content-type" content="text/html; charset=utf-8">
          <title>DoesNotExist at /notes/9</title>
          <style type="text/css">html * { padding:0; margin:0; }</style>
        </head>
        <body>
        <div id="summary">
          <h1>DoesNotExist
                 at /notes/9</h1>
          <pre class="exception_value">Note matching query does not exist.
        Second line</pre>
          <table class="meta">…</table>
        </div>
        </body>
        </html>
        """

    static let railsPublicPage = """
        <!DOCTYPE html>
        <html>
        <head>
          <title>We&#39;re sorry, but something went wrong (500)</title>
        </head>
        <body class="rails-default-error-page">
          <div class="dialog"><div>
            <h1>We&#39;re sorry, but something went wrong.</h1>
          </div></div>
        </body>
        </html>
        """

    @Test func aDebugPageIsSummarizedByItsHeadingAndException() {
        let error = SyncError.httpStatus(404, body: .string(Self.djangoDebugPage))
        #expect(error.errorPageSummary == "DoesNotExist at /notes/9: Note matching query does not exist.")
        #expect(
            error.description == "The server answered 404: DoesNotExist at /notes/9: Note matching query does not exist."
        )
        #expect(error == .httpStatus(404, body: .string(Self.djangoDebugPage)))
    }

    @Test func entitiesAreDecodedAndTheHeadingWinsOverTheTitle() {
        let error = SyncError.httpStatus(500, body: .string(Self.railsPublicPage))
        #expect(error.description == "The server answered 500: We're sorry, but something went wrong.")
    }

    @Test func aPageWithOnlyATitleUsesIt() {
        let page = "<html><head><title>502 Bad Gateway &middot; nginx</title></head><body><center>nginx</center></body></html>"
        #expect(SyncError.httpStatus(502, body: .string(page)).errorPageSummary == "502 Bad Gateway · nginx")
    }

    @Test func aLongSummaryIsCut() throws {
        let heading = String(repeating: "Timeout ", count: 40)
        let summary = try #require(SyncError.httpStatus(504, body: .string("<h1>\(heading)</h1>")).errorPageSummary)
        #expect(summary.count == 160)
        #expect(summary.hasSuffix("…"))
        #expect(summary.hasPrefix("Timeout Timeout"))
    }

    @Test func textThatIsNotAPageKeepsItsDescription() {
        let plain = SyncError.httpStatus(500, body: .string("a < b and <h1> is a tag"))
        #expect(plain.errorPageSummary == nil)
        #expect(plain.description == #"The server answered 500: "a < b and <h1> is a tag""#)
        #expect(SyncError.httpStatus(500, body: ["error": "boom"]).errorPageSummary == nil)
        #expect(SyncError.timedOut.errorPageSummary == nil)
    }

    @Test func anUndecodableSuccessPageIsSummarizedToo() {
        let error = SyncError.undecodableBody(
            status: 200,
            reason: "its Content-Type is text/html, not JSON",
            text: "<!DOCTYPE html><html><body><h1>Welcome to Hotel Wi-Fi</h1></body></html>"
        )
        #expect(error.errorPageSummary == "Welcome to Hotel Wi-Fi")
        #expect(
            error.description
                == "The response (200) cannot be decoded: its Content-Type is text/html, not JSON (Welcome to Hotel Wi-Fi)"
        )
    }

    @Test func realServerErrorPagesAreSummarized() async throws {
        let server = try await TestServer.shared
        let api = RESTSync(baseURL: server.baseURL)
        for (path, expected) in [
            ("/server-error", "The server answered 500: Server Error (500)"),
            ("/website/503", "The server answered 503: Service Unavailable"),
        ] {
            let error = await #expect(throws: SyncError.self) {
                try await api.perform(SyncRequest(method: .read, url: SyncFixture.url(path)))
            }
            #expect(error?.description == expected)
            guard case .httpStatus(_, .string(let page))? = error else {
                Issue.record("expected the page in the error, got \(String(describing: error))")
                continue
            }
            #expect(page.contains("</h1>"))
        }
    }
}
