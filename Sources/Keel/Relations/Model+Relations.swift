extension Model {
    /// The live has-many collection of a relation: the same instance for the owner's whole
    /// life, merged into by id when the owner's attribute is set or fetched.
    ///
    /// ```swift
    /// let invites = user[User.invites]
    /// invites.add(Invite(["email": "ada@example.com"]))   // user fires change:invites
    /// ```
    ///
    /// - Parameter relation: A relation listed in the class's ``Model/relations``.
    /// - Returns: The related collection.
    @_disfavoredOverload
    public subscript<Child: Model>(relation: HasMany<Child>) -> Collection<Child> {
        // The relation subscripts are disfavored for the compiler's sake (see `subscript(key:)`
        // of `AttributeKey`); no argument ever matches two of them.
        guard let link = relationLinks?[relation.key] as? ManyLink<Child> else {
            preconditionFailure("\(type(of: self)).relations does not list the has-many \"\(relation.key)\"")
        }
        return link.collection
    }

    /// The embedded model of a has-one relation, or `nil`; setting it replaces the model and
    /// fires `change:<key>` and `change`.
    ///
    /// ```swift
    /// user[User.profile] = Profile(["bio": "Engineer"])
    /// ```
    ///
    /// - Parameter relation: A relation listed in the class's ``Model/relations``.
    @_disfavoredOverload
    public subscript<Child: Model>(relation: HasOne<Child>) -> Child? {
        get { oneLink(relation.key, Child.self).model }
        set { oneLink(relation.key, Child.self).assign(newValue) }
    }

    /// The parent of a belongs-to relation, when the server embedded it or the app set it;
    /// setting it also sets the foreign key.
    ///
    /// ```swift
    /// user[User.organization] = acme   // organizationId becomes acme.id
    /// ```
    ///
    /// - Parameter relation: A relation listed in the class's ``Model/relations``.
    @_disfavoredOverload
    public subscript<Parent: Model>(relation: BelongsTo<Parent>) -> Parent? {
        get { oneLink(relation.key, Parent.self).model }
        set { oneLink(relation.key, Parent.self).assign(newValue) }
    }

    /// The validation errors of the related models, under their paths in this model: an invite's
    /// `email` error as `invites[1].email`, its own messages under `invites[1]`.
    ///
    /// Call it from ``validate(_:options:)`` to make the owner's validity include its relations'.
    ///
    /// ```swift
    /// override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
    ///     var errors = relatedValidationErrors(options: options)
    ///     if attributes["name"] == nil { errors.add("can't be blank", for: "name") }
    ///     return errors
    /// }
    /// ```
    ///
    /// - Parameter options: The options passed to the related models' `validate`.
    /// - Returns: The errors; empty when every related model is valid.
    public func relatedValidationErrors(options: ChangeOptions = ChangeOptions()) -> ValidationError {
        var result = ValidationError()
        guard let links = relationLinks else { return result }
        for (_, link) in links.sorted(by: { $0.key < $1.key }) {
            for (path, model) in link.relatedModels {
                guard let error = model.validationFailure(for: model.storage, options: options) else { continue }
                for message in error.messages { result.add(message, for: path) }
                for (attribute, messages) in error.attributes.sorted(by: { $0.key < $1.key }) {
                    for message in messages { result.add(message, for: "\(path).\(attribute)") }
                }
            }
        }
        return result
    }

    /// Builds a related model through the identity map or the factory this model was created
    /// with, if any.
    func makeRelated<Target: Model>(
        _ type: Target.Type,
        resource: String,
        _ attributes: Attributes,
        options: ChangeOptions
    ) -> Target {
        guard let extras = storedExtras else { return Target(attributes, options: options) }
        // Unretained: this model keeps the map alive (its extras hold it) for the whole call.
        if let map = extras.unretainedRelatedModelSource {
            return map._withUnsafeGuaranteedRef {
                $0.makeRelated(Target.self, collection: resource, attributes, options: options)
            }
        }
        return Self.makeRelated(
            Target.self,
            resource: resource,
            attributes,
            options: options,
            builder: extras.relatedModelBuilder,
            source: nil
        )
    }

    /// ``makeRelated(_:resource:_:options:)`` for a to-one link, telling whether an identity
    /// map found the model already holding `attributes` bit for bit
    /// (``IdentityMap/takeExactCopy(of:)``): the record is then the model's mirror.
    func makeLinked<Target: Model>(
        _ type: Target.Type,
        resource: String,
        _ attributes: Attributes,
        options: ChangeOptions
    ) -> (model: Target, isExactCopy: Bool) {
        // Unretained: this model keeps the map alive (its extras hold it) for the whole call.
        guard let map = storedExtras?.unretainedRelatedModelSource else {
            return (makeRelated(Target.self, resource: resource, attributes, options: options), false)
        }
        return map._withUnsafeGuaranteedRef {
            let model = $0.makeRelated(Target.self, collection: resource, attributes, options: options)
            return (model, $0.takeExactCopy(of: ObjectIdentifier(model)))
        }
    }

    /// Builds a related model through `builder`'s factory, the one a model was created with, if
    /// any; `source` is the identity map whose factory it is, if the model keeps it.
    static func makeRelated<Target: Model>(
        _ type: Target.Type,
        resource: String,
        _ attributes: Attributes,
        options: ChangeOptions,
        builder: RelatedModelBuilder?,
        source: IdentityMap?
    ) -> Target {
        guard let builder else { return Target(attributes, options: options) }
        // An identity map's factory gives the related models of a class with relations its own
        // hooks: the map is asked directly. Another factory is passed on.
        if let source { return source.makeRelated(Target.self, collection: resource, attributes, options: options) }
        var options = options
        options.relatedModelBuilder = builder
        return builder.factory(Target.self, resource, attributes, options) as? Target
            ?? Target(attributes, options: options)
    }

    /// The URL of the model of a ``HasOne``: its owner's plus the relation's path.
    var ownerResourcePath: String? {
        guard let owner = storedExtras?.hasOneOwner, let path = storedExtras?.hasOnePath else { return nil }
        return owner.nestedResourcePath(path)
    }

    /// The resource path under a parent, from a ``BelongsTo`` declared with `nestsURL`.
    var parentResourcePath: String? {
        for relation in Self.relations {
            if let base = (relation as? any RelationImplementation)?.nestedBase(for: self) { return base }
        }
        return nil
    }

    /// The live sides of the class's relations.
    var relationLinks: RelationLinks? { storedExtras?.relationLinks }

    /// Creates the live sides of the class's relations; called once, from `init`.
    ///
    /// The link of a class's only relation, a has-one or belongs-to, is the extras of a model
    /// that has none yet: a post built with its author then allocates one object fewer.
    ///
    /// - Parameter builder: What builds the related models (``ChangeOptions/relatedModelBuilder``),
    ///   stored in the extras before any other link is made: a ``ManyLink`` takes it when made.
    func makeRelationLinks(_ implementations: [any RelationImplementation], builder: RelatedModelBuilder?) {
        if storedExtras == nil, implementations.count == 1,
            let extras = implementations[0].makeLinkAsExtras(owner: self)
        {
            // The builder first, then the extras moved in: stored first, they were retained for
            // the builder's store and released after it.
            if let builder { extras.relatedModelBuilder = builder }
            storedExtras = consume extras
            return
        }
        if let builder { extras.relatedModelBuilder = builder }
        extras.relationLinks = RelationLinks(implementations, owner: self)
    }

    /// Merges the relation attributes of a `set` into the related objects and puts their
    /// mirrors in place of the values.
    ///
    /// The relations are merged in the order of their attributes in `attributes`. Records read
    /// from a server (`parse: true`) are handed on naming the document they came from
    /// (``ChangeOptions/linkingRecords``).
    func mergeRelations(_ attributes: Attributes, into links: RelationLinks, options: ChangeOptions)
        -> Attributes
    {
        let options = options.linkingRecords
        var result = attributes
        Self.forEachRelation(in: attributes, links: links) { position, link in
            let value = attributes.value(at: position)
            // A value of the wrong shape stays as it is (a `set` rejects it before this).
            guard options.unset || link.shapeError(of: value) == nil else { return }
            if options.unset {
                _ = link.merge(nil, options: options)
            } else {
                let mirror = link.merge(value, options: options) ?? .null
                // A record the mirror repeats exactly stays: replacing it copied the attributes.
                if !Self.isExactCopy(mirror, of: value) { result.setValue(mirror, at: position) }
            }
        }
        return result
    }

    /// Whether `mirror` repeats `value` exactly.
    ///
    /// Both are objects with the same keys (as an object finds them) in the same order, and
    /// each value is the same case with the same payload (string values by their UTF-8, not
    /// Unicode equivalence; `1` and `1.0` differ). Values equal only by `==` otherwise, nested
    /// ones included, answer `false`, and the mirror replaces the value.
    static func isExactCopy(_ mirror: JSONValue, of value: JSONValue) -> Bool {
        guard case .object(let mirrored) = mirror, case .object(let given) = value else { return false }
        if mirrored.isIdentical(to: given) { return true }
        guard mirrored.count == given.count else { return false }
        for position in 0..<given.count {
            guard Self.areEqualKeys(mirrored.keyAddress(at: position), given.keyAddress(at: position)) else {
                return false
            }
            switch mirrored.match(ofValueAt: position, withValueAt: position, in: given) {
            case .sameBits: continue
            case .different: return false
            case .equal:
                guard Self.areStringsWithSameUTF8(mirrored.valueAddress(at: position), given.valueAddress(at: position))
                else { return false }
            }
        }
        return true
    }

    /// Whether the keys at `a` and `b` are equal, as ``StringIdentity/equal(_:_:)`` decides:
    /// by their bits in place, and out of line when those do not decide.
    ///
    /// ``isExactCopy(_:of:)`` borrows no `String` from an address of its objects: such a
    /// borrow crashed the release build's copy propagation (Swift 6.3.1: "Found outside of
    /// lifetime use").
    @inline(__always)
    private static func areEqualKeys(_ a: UnsafePointer<String>, _ b: UnsafePointer<String>) -> Bool {
        #if _pointerBitWidth(_64)
            let (a0, a1) = UnsafeRawPointer(a).load(as: (UInt64, UInt64).self)
            let (b0, b1) = UnsafeRawPointer(b).load(as: (UInt64, UInt64).self)
            if a0 == b0 && a1 == b1 { return true }
            // Both small ASCII strings (the top three bits of the second word set): different.
            if (a1 & b1) >> 61 == 0b111 { return false }
        #endif
        return areEqualStrings(a, b)
    }

    /// `==` on the strings at `a` and `b`, out of line (``areEqualKeys(_:_:)``).
    @inline(never)
    private static func areEqualStrings(_ a: UnsafePointer<String>, _ b: UnsafePointer<String>) -> Bool {
        a.pointee == b.pointee
    }

    /// Whether the values at `a` and `b` are both strings with the same UTF-8: for
    /// ``isExactCopy(_:of:)``, whose values are equal by `==`; out of line, as
    /// ``areEqualKeys(_:_:)`` says.
    @inline(never)
    private static func areStringsWithSameUTF8(_ a: UnsafePointer<JSONValue>, _ b: UnsafePointer<JSONValue>) -> Bool {
        guard case .string(let aText) = a.pointee, case .string(let bText) = b.pointee else { return false }
        return aText.utf8.count == bText.utf8.count && aText.utf8.elementsEqual(bText.utf8)
    }

    /// The errors of relation attributes whose values cannot be merged (a has-many set to a
    /// string): such a `set` is rejected as invalid, whatever `validate` says, so that no
    /// related record is lost.
    func relationShapeErrors(_ attributes: Attributes, links: RelationLinks) -> ValidationError? {
        // Made only for a value of the wrong shape: most `set`s have none.
        var errors: ValidationError?
        Self.forEachRelation(in: attributes, links: links) { position, link in
            guard let message = link.shapeError(of: attributes.value(at: position)) else { return }
            errors = errors ?? ValidationError()
            errors?.add(message, for: link.key)
        }
        return errors
    }

    /// Calls `body` with the position in `attributes` of each relation's attribute, in order,
    /// and its link.
    ///
    /// Each relation's key is looked up in the attributes: a class has a few relations and a
    /// `set` often more attributes, and hashing every attribute's name to look it up among
    /// the links cost more.
    static func forEachRelation(
        in attributes: Attributes,
        links: RelationLinks,
        _ body: (_ position: Int, _ link: any RelationLink) -> Void
    ) {
        let isOnlyLink = links.withOnlyLink { link in
            if let position = link.position(in: attributes) { body(position, link) }
        }
        if isOnlyLink { return }
        var found: [(position: Int, link: any RelationLink)] = []
        for (key, link) in links {
            if let position = attributes.index(forKey: key) { found.append((position, link)) }
        }
        found.sort { $0.position < $1.position }
        for (position, link) in found { body(position, link) }
    }

    /// The URL of a related collection: the class's relationship route for `key` filled from
    /// this model, else the model's own URL (without a format's file suffix) plus `path`;
    /// `nil` while the model is new or has no URL.
    func nestedResourcePath(_ path: String, key: String? = nil) -> String? {
        if let key, let route = Self.routes.relationships[key] { return try? routePath(route) }
        guard !isNew, var base = try? url() else { return nil }
        let suffix = (collectionContext?.wireFormat ?? Self.wireFormat).pathSuffix
        if suffix != "/" && !suffix.isEmpty && base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return URLPath.join(base, path)
    }

    private func oneLink<Target: Model>(_ key: String, _ type: Target.Type) -> OneLink<Target> {
        guard let link = relationLinks?[key] as? OneLink<Target> else {
            preconditionFailure("\(Swift.type(of: self)).relations does not list \"\(key)\" for \(Target.self)")
        }
        return link
    }
}
