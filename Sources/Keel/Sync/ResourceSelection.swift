import Foundation

/// Which related resources a read includes and which fields it returns, per resource type:
/// JSON:API's `include` and `fields[type]` query parameters (compound documents and sparse
/// fieldsets), and which resources it returns: a ``DrupalFilter`` as `filter[…]` parameters.
///
/// Relation paths and field names are app names; the call's wire format maps them to wire
/// names (`publishedAt` → `published_at` with snake_case keys). Types are written as on the
/// wire.
///
/// ```swift
/// var options = SyncOptions()
/// options.resources = ResourceSelection(include: ["author", "comments.author"], fields: ["articles": ["title"]])
/// try await article.fetch(options: options)  // ?include=author,comments.author&fields[articles]=title
/// ```
public struct ResourceSelection: Sendable, Hashable {
    /// Relation paths whose records the response should include, dot-separated
    /// (`comments.author`).
    public var include: [String]
    /// The fields to return, by resource type; types not listed return all their fields.
    public var fields: [String: [String]]
    /// The resources to return, in the syntax of Drupal's JSON:API module; `nil` for all.
    ///
    /// ```swift
    /// var selection = ResourceSelection()
    /// selection.filter = [.condition("title", .startsWith("Swift"))]
    /// ```
    public var filter: DrupalFilter?

    /// Creates a selection; by default nothing is asked for, and the server decides.
    ///
    /// ```swift
    /// let selection = ResourceSelection(include: ["author"])
    /// ```
    ///
    /// - Parameters:
    ///   - include: Relation paths to include, in app names.
    ///   - fields: The fields to return per resource type, in app names.
    ///   - filter: The resources to return; all when `nil`.
    public init(include: [String] = [], fields: [String: [String]] = [:], filter: DrupalFilter? = nil) {
        self.include = include
        self.fields = fields
        self.filter = filter
    }

    /// Whether the selection asks for nothing.
    var isEmpty: Bool { include.isEmpty && fields.isEmpty && filter == nil }

    /// The part of the selection a URL's query does not carry yet: a server's page link
    /// repeats the `include`, `fields[type]` and `filter[…]` of the request it answers.
    func missing(from url: String) -> ResourceSelection {
        let names = Set((URLComponents(string: url)?.queryItems ?? []).map(\.name))
        var rest = self
        if names.contains("include") { rest.include = [] }
        if names.contains(where: { $0.hasPrefix("filter[") }) { rest.filter = nil }
        rest.fields = fields.filter { !names.contains("fields[\($0.key)]") }
        return rest
    }
}

extension WireFormat {
    /// The `include` and `fields[type]` query parameters of a selection, in wire names.
    func resourceQueryItems(_ selection: ResourceSelection) -> [(key: String, value: String)] {
        guard !selection.isEmpty else { return [] }
        var items = selection.filter?.queryItems(keys: keys) ?? []
        if !selection.include.isEmpty {
            let paths = selection.include.map { path in
                path.split(separator: ".").map { keys.wireName(for: String($0)) }.joined(separator: ".")
            }
            items.append(("include", paths.joined(separator: ",")))
        }
        for (type, names) in selection.fields.sorted(by: { $0.key < $1.key }) {
            items.append(("fields[\(type)]", names.map { keys.wireName(for: $0) }.joined(separator: ",")))
        }
        return items
    }

    /// The format's `Accept` and (for a JSON body) `Content-Type` headers, then a call's own,
    /// which win whatever their case.
    func headers(for method: SyncMethod, options: SyncOptions) -> [String: String] {
        guard let mediaType else { return options.headers }
        var headers: [String: String] = ["Accept": mediaType]
        let sendsJSON = [.create, .update, .patch].contains(method) && options.files.isEmpty
        if sendsJSON && options.requestBody == nil { headers["Content-Type"] = mediaType }
        for (name, value) in options.headers {
            if let ours = headers.keys.first(where: { $0.lowercased() == name.lowercased() }) { headers[ours] = nil }
            headers[name] = value
        }
        return headers
    }
}
