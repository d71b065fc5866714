/// The nested value that URL-encoded form fields describe, built one field at a time; field
/// names may be in either ``FormNotation``: `note[tags][]`, `items[0][name]`,
/// `address.city`, `items[0]name`.
struct FormFields {
    /// One step of a field name: an object key, `[]` (the next element of a list) or `[n]`.
    private enum Segment: Equatable {
        case key(String)
        case append
        case index(Int)
    }

    /// A value while the form is read: objects keep their keys in the order they appear.
    private indirect enum Node {
        case text(String)
        case list([Node])
        case group([(key: String, node: Node)])
    }

    private var root = Node.group([])

    /// The form as an object.
    var value: JSONValue { Self.json(root) }

    /// Adds a field.
    ///
    /// - Throws: ``BodyCodecError`` when the name has an unclosed `[`, skips a list index, or
    ///   names a value where another field made a group (or the other way round).
    mutating func add(_ value: String, named name: String) throws(BodyCodecError) {
        let path = try Self.path(of: name)
        root = try Self.inserting(value, at: path[...], into: root, field: name)
    }

    // MARK: - Names

    private static func path(of name: String) throws(BodyCodecError) -> [Segment] {
        var segments: [Segment] = []
        var rest = name[...]
        let first = rest.prefix { $0 != "[" && $0 != "." }
        segments.append(.key(String(first)))
        rest = rest[first.endIndex...]
        while let next = rest.first {
            switch next {
            case "[":
                guard let close = rest.firstIndex(of: "]") else {
                    throw BodyCodecError("the field name \(name.debugDescription) has an unclosed [")
                }
                let inner = rest[rest.index(after: rest.startIndex)..<close]
                if inner.isEmpty {
                    segments.append(.append)
                } else if inner.allSatisfy(\.isASCII) && inner.allSatisfy(\.isNumber), let index = Int(inner) {
                    segments.append(.index(index))
                } else {
                    segments.append(.key(String(inner)))
                }
                rest = rest[rest.index(after: close)...]
            default:
                // `.city`, or the bare `name` that Django REST framework writes after `[0]`.
                if next == "." { rest = rest.dropFirst() }
                let key = rest.prefix { $0 != "[" && $0 != "." }
                segments.append(.key(String(key)))
                rest = rest[key.endIndex...]
            }
        }
        return segments
    }

    // MARK: - Building

    private static func inserting(
        _ value: String,
        at path: ArraySlice<Segment>,
        into node: Node?,
        field: String
    ) throws(BodyCodecError) -> Node {
        let conflict = BodyCodecError(
            "the field \(field.debugDescription) names a value where another field made a group, or the other way round"
        )
        guard var segment = path.first else {
            // A name given more than once, as Django's QueryDict writes a list.
            switch node {
            case nil: return .text(value)
            case .text(let earlier)?: return .list([.text(earlier), .text(value)])
            case .list(let items)?: return .list(items + [.text(value)])
            case .group?: throw conflict
            }
        }
        let rest = path.dropFirst()
        // An index into an object, as Rack reads `items[0][name]`: a key like any other.
        if case .index(let index) = segment, case .group? = node { segment = .key(String(index)) }
        switch (segment, node) {
        case (.key(let key), nil), (.key(let key), .group?):
            var members: [(key: String, node: Node)] = []
            if case .group(let existing)? = node { members = existing }
            if let position = members.firstIndex(where: { $0.key == key }) {
                members[position].node = try inserting(value, at: rest, into: members[position].node, field: field)
            } else {
                members.append((key, try inserting(value, at: rest, into: nil, field: field)))
            }
            return .group(members)
        case (.append, nil), (.append, .list?):
            var items: [Node] = []
            if case .list(let existing)? = node { items = existing }
            // Rack's rule for `items[][name]`: a field goes into the last object of the list
            // unless that object has it already, which starts the next one.
            if case .key(let key)? = rest.first, case .group(let members)? = items.last,
                !members.contains(where: { $0.key == key })
            {
                items[items.count - 1] = try inserting(value, at: rest, into: items.last, field: field)
            } else {
                items.append(try inserting(value, at: rest, into: nil, field: field))
            }
            return .list(items)
        case (.index(let index), nil), (.index(let index), .list?):
            var items: [Node] = []
            if case .list(let existing)? = node { items = existing }
            guard index <= items.count else {
                throw BodyCodecError("the field \(field.debugDescription) skips list index \(items.count)")
            }
            if index == items.count {
                items.append(try inserting(value, at: rest, into: nil, field: field))
            } else {
                items[index] = try inserting(value, at: rest, into: items[index], field: field)
            }
            return .list(items)
        default:
            throw conflict
        }
    }

    private static func json(_ node: Node) -> JSONValue {
        switch node {
        case .text(let text): return .string(text)
        case .list(let items): return JSONValue(items.map(json))
        case .group(let members):
            return .object(JSONObject(uniqueKeysWithLastValues: members.map { ($0.key, json($0.node)) }))
        }
    }
}
