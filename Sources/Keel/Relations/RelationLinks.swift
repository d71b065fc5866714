/// The live sides of one model's relations (``RelationLink``), one per attribute, in the
/// order the class declares them.
///
/// A class has a few relations, so a link is found by comparing keys along a list: a
/// dictionary per model cost a hashed insert and a table's allocation for every model
/// built, more than its lookups saved. The one link of a class with a single relation is
/// held in place, without an array: one allocation fewer per model. When that relation is
/// to-one (a post's author), its link is the model's extras themselves, which hold these
/// links, so it is held unowned: one object fewer again.
struct RelationLinks: Sequence {
    private enum Storage {
        case one(any RelationLink)
        case list([any RelationLink])
        /// The one link that is the extras holding these links (``OneLink/asOwnerExtras()``).
        case extras(UnownedLink)
    }

    /// A link held without a reference count: the extras that hold the links, when the link is
    /// those extras, would otherwise keep themselves alive.
    private struct UnownedLink {
        unowned(unsafe) let link: any RelationLink
    }

    private var storage: Storage

    /// The links of `implementations`, made for `owner`, of distinct keys; a later relation
    /// with the key of an earlier one replaces it.
    init(_ implementations: [any RelationImplementation], owner: Model) {
        if implementations.count == 1 {
            // Made where the element lies: `first` copied the existential out and destroyed the
            // copy through its value witnesses, about 130 instructions a model.
            self.init(storage: .one(implementations[0].makeLink(owner: owner)))
        } else {
            self.init(implementations.map { $0.makeLink(owner: owner) })
        }
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The links of an owner whose one link is its extras, which hold these links.
    init(extrasLink link: any RelationLink) {
        storage = .extras(UnownedLink(link: link))
    }

    /// The links, of distinct keys; a later link with the key of an earlier one replaces it.
    init(_ links: [any RelationLink]) {
        storage = .list(links)
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
        if distinct.count < links.count { storage = .list(distinct) }
    }

    /// The link of the relation whose attribute is `key`, if any.
    subscript(key: String) -> (any RelationLink)? {
        switch storage {
        case .one(let link): return link.key == key ? link : nil
        case .extras(let held): return held.link.key == key ? held.link : nil
        case .list(let links):
            for link in links where link.key == key { return link }
            return nil
        }
    }

    /// How many relations the model has.
    var count: Int {
        switch storage {
        case .one, .extras: 1
        case .list(let links): links.count
        }
    }

    /// The links' attributes, in order.
    var keys: [String] { values.map(\.key) }

    /// The links, in order.
    var values: [any RelationLink] {
        switch storage {
        case .one(let link): [link]
        case .extras(let held): [held.link]
        case .list(let links): links
        }
    }

    /// Calls `body` with the link of a model that has one relation, where the link lies, and
    /// returns `true`; returns `false` without calling it when the model has several.
    ///
    /// Copying the link and its attribute out as a pair retained both, and released them after
    /// the merge of every record with a relation (about 100 instructions a post of
    /// `bulk_relations`).
    @inline(__always)
    func withOnlyLink(_ body: (any RelationLink) -> Void) -> Bool {
        switch storage {
        case .one(let link): body(link)
        case .extras(let held): body(held.link)
        case .list(let links):
            guard links.count == 1 else { return false }
            body(links[0])
        }
        return true
    }

    func makeIterator() -> some IteratorProtocol<(key: String, value: any RelationLink)> {
        values.lazy.map { (key: $0.key, value: $0) }.makeIterator()
    }
}
