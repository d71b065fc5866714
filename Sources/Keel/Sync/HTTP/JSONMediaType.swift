import Foundation

/// Which `Content-Type`s carry JSON, for `RESTSync` and for the offline queue, which both
/// refuse a success answered in something else (a captive portal's `200 text/html`).
package enum JSONMediaType {
    /// Whether a `Content-Type` header value names JSON: `application/json`, `text/json`, or
    /// a `+json` type such as `application/problem+json` or `application/vnd.api+json`;
    /// parameters (`; charset=utf-8`) and case are ignored.
    package static func matches(_ contentType: String) -> Bool {
        let mediaType = (contentType.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces)
            .lowercased()
        return mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json")
    }
}
