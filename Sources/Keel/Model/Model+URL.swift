public import Foundation

extension Model {
    /// The base URL in effect: the model's own, else its collection's (or, once that
    /// collection is released, the one it had), else the class's.
    ///
    /// `nil` leaves relative URLs for the backend to resolve (``RESTSync`` uses its own
    /// base URL).
    ///
    /// ```swift
    /// note.resolvedBaseURL
    /// ```
    public var resolvedBaseURL: URL? {
        baseURL ?? collectionContext?.baseURL ?? Self.baseURL
    }

    /// The backend in effect: the model's own, else its collection's (or, once that
    /// collection is released, the one it had), else the class's.
    ///
    /// ```swift
    /// let backend = note.resolvedSync
    /// ```
    public var resolvedSync: (any Sync)? {
        sync ?? collectionContext?.sync ?? Self.sync
    }

    /// The collection's URL, base URL and backend; after the collection is released, the
    /// ones it had, so a model created by a collection can still sync on its own.
    var collectionContext: CollectionSyncContext? {
        if let collection { return CollectionSyncContext(collection) }
        return storedExtras?.releasedCollection
    }

    /// Keeps a released collection's URL, base URL and backend for syncing, unless this
    /// model already kept an earlier collection's.
    func keepSyncContext(of released: CollectionSyncContext) {
        guard storedExtras?.releasedCollection == nil else { return }
        extras.releasedCollection = released
    }

    /// The full URL for one operation: the options' URL, else the per-operation URL, else
    /// ``url()``, resolved against ``resolvedBaseURL``.
    ///
    /// ```swift
    /// let target = try note.requestURL(for: .update)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The operation.
    ///   - options: SyncOptions whose ``SyncOptions/url`` wins over everything else.
    /// - Returns: An absolute URL when a base URL is known, else a relative one.
    /// - Throws: ``SyncError/missingURL(_:)`` when no URL can be found or built.
    public func requestURL(for method: SyncMethod, options: SyncOptions = SyncOptions()) throws(SyncError) -> URL {
        let perOperation: String?
        switch method {
        case .read: perOperation = fetchURL
        case .create: perOperation = createURL
        case .update, .patch: perOperation = updateURL
        case .delete: perOperation = destroyURL
        }
        let path: String
        if let explicit = options.url ?? perOperation {
            path = explicit
        } else {
            path = try url()
        }
        return try URLPath.resolve(path, against: resolvedBaseURL)
    }
}

/// Joining, encoding and resolving URL paths the way ISModel and Backbone do.
package enum URLPath {
    /// Characters that JavaScript's `encodeURIComponent` leaves alone.
    private static let componentAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
    )

    /// Percent-encodes an id for use as one path segment.
    package static func encodeComponent(_ id: JSONValue) -> String {
        let text: String
        switch id {
        case .string(let string): text = string
        case .int(let int): text = String(int)
        case .double(let double): text = Int(exactly: double).map(String.init) ?? String(double)
        default: text = id.description
        }
        return text.addingPercentEncoding(withAllowedCharacters: componentAllowed) ?? text
    }

    /// Joins two parts with exactly one `/` between them.
    package static func join(_ base: String, _ component: String) -> String {
        switch (base.hasSuffix("/"), component.hasPrefix("/")) {
        case (true, true): return base + component.dropFirst()
        case (false, false): return base + "/" + component
        default: return base + component
        }
    }

    /// Resolves a path against a base URL by joining them; absolute URLs stay as they are.
    package static func resolve(_ path: String, against base: URL?) throws(SyncError) -> URL {
        if path.contains("://"), let absolute = URL(string: path) { return absolute }
        let joined = base.map { join($0.absoluteString, path) } ?? path
        guard let url = URL(string: joined) else { throw .missingURL("\(joined) is not a valid URL") }
        return url
    }
}
