import Foundation

/// Which backend a model's requests go to, for telling whether the models of one atomic
/// call share theirs.
///
/// A backend that is a class is itself (one instance, one transaction); a ``RESTSync`` is its
/// base URL and headers (two values with the same ones reach the same server as the same
/// client); any other value type is its type, since it has no identity to compare.
enum BackendIdentity: Hashable {
    case instance(ObjectIdentifier)
    case rest(baseURL: URL?, headers: [String: String])
    case type(ObjectIdentifier)

    init(_ backend: any Sync) {
        if let rest = backend as? RESTSync {
            self = .rest(baseURL: rest.baseURL?.absoluteURL, headers: rest.headers)
        } else if Swift.type(of: backend) is AnyClass {
            self = .instance(ObjectIdentifier(backend as AnyObject))
        } else {
            self = .type(ObjectIdentifier(Swift.type(of: backend)))
        }
    }

    /// The scheme, host and port a URL reaches, resolved against `base`; `nil` for a URL
    /// with no host (one a non-REST backend answers itself).
    static func origin(of url: URL, base: URL?) -> String? {
        let resolved = URL(string: url.relativeString, relativeTo: base)?.absoluteURL ?? url
        guard let host = resolved.host(percentEncoded: false)?.lowercased() else { return nil }
        let scheme = resolved.scheme?.lowercased() ?? ""
        let port = resolved.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
