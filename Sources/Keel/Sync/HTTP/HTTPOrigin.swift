import Foundation

/// The origin of a URL as RFC 6454 defines it: scheme, host and port, which decide where
/// credentials may go.
///
/// Scheme and host compare case-insensitively, and a missing port is the scheme's default,
/// so `https://API.example.com` and `https://api.example.com:443/v1` have the same origin.
struct HTTPOrigin: Hashable, Sendable {
    let scheme: String
    let host: String
    let port: Int?

    /// The origin of an absolute URL; `nil` for a URL without a scheme or host.
    init?(_ url: URL) {
        guard
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(),
            !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = components.port ?? Self.defaultPorts[scheme]
    }

    private static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443]

    /// Whether both URLs have an origin and it is the same.
    static func same(_ first: URL?, _ second: URL?) -> Bool {
        guard let first, let second, let origin = HTTPOrigin(first) else { return false }
        return HTTPOrigin(second) == origin
    }
}
