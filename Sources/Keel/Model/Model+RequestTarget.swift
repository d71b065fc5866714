import Foundation

extension Model {
    /// Where the request of one operation goes: ``requestURL(for:options:)``, as a path
    /// whose `URL` is made only when a backend asks for it, when there is no base URL and
    /// the path is one `URL(string:)` takes as it is (``RequestTarget/init(validPath:)``).
    ///
    /// A backend that stores records (`SQLiteSync`, ``InMemorySync``) reads the path and
    /// never the `URL`: parsing it was about 1.7 k instructions of every create, save and
    /// destroy. ``SyncRequest/url`` then gives the very `URL` that ``requestURL(for:options:)``
    /// makes.
    ///
    /// - Throws: What ``requestURL(for:options:)`` throws.
    func requestTarget(for method: SyncMethod, options: SyncOptions) throws(SyncError) -> RequestTarget {
        let path: String
        if let explicit = options.url ?? perOperationURL(for: method) {
            path = explicit
        } else if let route = try routeInUse(for: method, options: options) {
            path = wireFormat(for: options).suffixed(try routePath(route, extra: options.routeParameters))
        } else if let callFormat = options.wireFormat {
            path = callFormat.suffixed(try url())
        } else {
            path = try url()
        }
        let base = resolvedBaseURL
        // `URLPath.resolve` leaves a path as it is without a base URL (a valid path has no
        // scheme), and parses it with `URL(string:)`, which the target does when asked.
        if base == nil, let target = RequestTarget(validPath: path) { return target }
        return .url(try URLPath.resolve(path, against: base))
    }
}
