/// The live sides of one model's relations (``RelationLink``), one per attribute, in the
/// order the class declares them.
///
/// A class has a few relations, so a link is found by comparing keys along a list: a
/// dictionary per model cost a hashed insert and a table's allocation for every model
/// built, more than its lookups saved.
struct RelationLinks: Sequence {
    private var links: [any RelationLink]

    /// The links, of distinct keys; a later link with the key of an earlier one replaces it.
    init(_ links: [any RelationLink]) {
        self.links = links
        // A class declares each attribute's relation once; the rare repeat is resolved here.
        guard links.count > 1 else { return }
        var distinct: [any RelationLink] = []
        for link in links {
            if let earlier = distinct.firstIndex(where: { $0.key == link.key }) {
                distinct[earlier] = link
            } else {
                distinct.append(link)
            }
        }
        if distinct.count < links.count { self.links = distinct }
    }

    /// The link of the relation whose attribute is `key`, if any.
    subscript(key: String) -> (any RelationLink)? {
        for link in links where link.key == key { return link }
        return nil
    }

    /// How many relations the model has.
    var count: Int { links.count }

    /// The links' attributes, in order.
    var keys: [String] { links.map(\.key) }

    /// The links, in order.
    var values: [any RelationLink] { links }

    /// The first link and its attribute.
    var first: (key: String, value: any RelationLink)? { links.first.map { ($0.key, $0) } }

    func makeIterator() -> some IteratorProtocol<(key: String, value: any RelationLink)> {
        links.lazy.map { (key: $0.key, value: $0) }.makeIterator()
    }
}
