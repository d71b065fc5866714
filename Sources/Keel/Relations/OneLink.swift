/// The live side of a ``HasOne`` or ``BelongsTo``: one embedded model, or none, and for a
/// belongs-to the foreign key that names it.
///
/// A ``ModelExtras``: the link of an owner whose class has no other relation is the owner's
/// extras too (``asOwnerExtras()``), one object instead of two; another link leaves the
/// extras' own state unused.
final class OneLink<Target: Model>: DependentLink, RelationLink {
    // One link per owner (a post's link to its author), so every byte counts: the relation's
    // settings are shared, the id kept for `_destroy` lives in the rarely used state, and the
    // flag and the 32-bit index lie in the extras' padding (a post's link took a 272-byte heap
    // chunk; 176 with the shared settings, 160 without the id, 144 with one reference to what
    // builds the related models, 128 with the server's record boxed, 112 with the sync gate
    // in that box and the index and flag in the padding).

    /// The relation's key, encoding and foreign key, shared by all its links.
    let settings: OneLinkSettings
    /// The model whose attribute this link fills, held without a reference count.
    ///
    /// The owner holds the link (its extras, or in them), and the link removes itself from the
    /// embedded model's ``DependentLinks`` when it goes: the owner outlives every call into the
    /// link but ``relatedModelDidChange()``, which keeps it alive itself. An `unowned` reference
    /// cost an unowned retain when made and a strong retain and release on every merge.
    unowned(unsafe) let owner: Model
    private(set) var model: Target?
    /// The links of ``model`` that tell this one of its changes.
    private var dependents: DependentLinks?
    /// The id of a saved model the owner cleared or replaced since the last sync, for Rails'
    /// `_destroy` (``RelationEncoding/nestedAttributes`` only), kept in the link's extras
    /// (``ModelExtras/removedLinkID``).
    private var removedID: JSONValue? {
        get { removedLinkID }
        set { removedLinkID = newValue }
    }
    init(settings: OneLinkSettings, owner: Model) {
        self.settings = settings
        self.owner = owner
        super.init()
    }

    /// The owner's attribute that holds the model.
    var key: String { settings.key }

    func position(in attributes: Attributes) -> Int? { attributes.index(forKey: settings.key) }
    /// How the model is sent.
    var encoding: RelationEncoding { settings.encoding }
    /// The owner's attribute that holds the model's id, for a belongs-to.
    var foreignKey: String? { settings.foreignKey }

    /// The link as its owner's extras, whose relation links are this one alone.
    ///
    /// Consuming: the new link is handed in and out again, where a borrowed one was retained
    /// to be returned and released by its maker.
    consuming func asOwnerExtras() -> ModelExtras {
        relationLinks = RelationLinks(extrasLink: self)
        return self
    }

    deinit {
        dependents?.remove(at: dependentIndex)
    }

    /// The model as JSON: its attributes, without its own relations for a belongs-to, so that a
    /// parent that lists its children does not mirror them back into each child.
    ///
    /// Read without registering Observation accesses: the owner's attribute is what observers
    /// track.
    var mirror: JSONValue? {
        guard let model else { return nil }
        guard foreignKey != nil, let links = model.relationLinks else { return .object(model.storage) }
        return .object(model.storage.filter { links[$0.key] == nil })
    }

    func merge(_ value: JSONValue?, options: ChangeOptions) -> JSONValue? {
        isMerging = true
        defer { isMerging = false }
        guard case .object(let record)? = value else {
            replace(with: nil)
            return value == nil ? nil : .null
        }
        let resource = Target.urlRoot ?? "/" + key
        // The record's id is looked up only against a linked model: a new owner has none.
        if let model, Self.isSameModel(model, id: record[Target.idAttribute]) {
            guard options.parse == true else {
                model.set(record, silent: options.silent, options: ChangeOptions(validate: false))
                return mirror
            }
            // A server record of its class, as a record the relation builds a model from: it goes
            // through the class's `parse`, once per document read when an identity map holds it.
            let options = options.with(silent: false, validate: false)
            if let map = withOwner({ $0.storedExtras?.unretainedRelatedModelSource }) {
                map._withUnsafeGuaranteedRef {
                    $0.applyLinkedRecord(record, to: model, collection: resource, options: options)
                }
            } else {
                model.set(record, options: options)
            }
        } else {
            let (related, isExactCopy) = withOwner {
                $0.makeLinked(Target.self, resource: resource, record, options: options)
            }
            replace(with: consume related)
            // The map found the model holding this record bit for bit: the record is its mirror,
            // which the owner then keeps without comparing the two again.
            if isExactCopy { return value }
        }
        return mirror
    }

    /// Calls `body` with the owner, borrowed: a merge runs within a call on the owner (its
    /// initializer or `set`), which keeps it alive, so it is neither retained nor released.
    @inline(__always)
    private func withOwner<Result>(_ body: (Model) -> Result) -> Result {
        Unmanaged.passUnretained(owner)._withUnsafeGuaranteedRef(body)
    }

    /// Whether a record with `id` (`nil` when it has none) is the linked `model`'s: it has no
    /// id, a `null` one, or the model's.
    private static func isSameModel(_ model: Target, id: JSONValue?) -> Bool {
        guard let id else { return true }
        return id == .null || id == model.id
    }

    /// Puts another model in place, or none, from the owner's side.
    func assign(_ newModel: Target?) {
        if encoding == .nestedAttributes, let old = model, old !== newModel, let id = old.storedID {
            removedID = id
        }
        if let id = newModel?.storedID, id == removedID { removedID = nil }
        isMerging = true
        replace(with: newModel)
        isMerging = false
        var changes: Attributes = [key: mirror ?? .null]
        if let foreignKey { changes[foreignKey] = newModel?.id ?? .null }
        var options = ChangeOptions(validate: false)
        if let newModel { options.nested = (newModel, key) }
        owner.apply(changes, options: options)
    }

    func encoded(changesOnly: Bool, visited: inout Set<ObjectIdentifier>) -> [(key: String, value: JSONValue)] {
        guard let model else {
            switch encoding {
            case .embedded: return [(key, .null)]
            case .nestedAttributes:
                guard let removedID else { return [] }
                let idKey = Target.wireFormat.keys.wireName(for: Target.idAttribute)
                return [(key + "_attributes", [idKey: removedID, "_destroy": true])]
            case .ids, .omitted: return []
            }
        }
        switch encoding {
        case .embedded:
            return [(key, .object(model.nestedRecord(model.toJSON(), changesOnly: false, visited: &visited)))]
        case .nestedAttributes:
            if model.isMarkedForDestruction {
                return model.nestedDestruction.map { [(key + "_attributes", $0)] } ?? []
            }
            guard !model.isNew else {
                let record = model.nestedRecord(model.toJSON(), changesOnly: false, visited: &visited)
                return [(key + "_attributes", .object(record))]
            }
            guard var changes = changesOnly ? model.unsavedChanges : model.toJSON(), let id = model.id else {
                return []
            }
            changes[model.idAttribute] = id
            let record = model.nestedRecord(changes, changesOnly: changesOnly, visited: &visited)
            return [(key + "_attributes", .object(record))]
        case .ids, .omitted:
            return []
        }
    }

    var hasPendingRemovals: Bool {
        guard removedID == nil else { return true }
        return encoding == .nestedAttributes && model.map { $0.isMarkedForDestruction && !$0.isNew } == true
    }

    func shapeError(of value: JSONValue) -> String? {
        // The case alone: `==` is out of line, and `objectValue` copies the record.
        switch value {
        case .null, .object: nil
        default: "must be a record"
        }
    }

    var relatedModels: [(path: String, model: Model)] { model.map { [(key, $0)] } ?? [] }

    func markSynced(visited: inout Set<ObjectIdentifier>) {
        removedID = nil
        model?.markSynced(visited: &visited)
    }

    /// Puts `newModel` in place of the linked model, or none: moved into the link, which keeps
    /// it, and used after that through the link's reference (a borrowed one was retained to be
    /// kept, and twice more around the calls that follow).
    private func replace(with newModel: consuming Target?) {
        if let model {
            dependents?.remove(at: dependentIndex)
            dependents = nil
            if model.storedExtras?.hasOneOwner === owner { model.extras.hasOneOwner = nil }
        }
        let placed = unretainedModel(newModel)
        model = consume newModel
        guard let placed else { return }
        // Borrowed: the link holds the model, and nothing below puts another in its place.
        placed._withUnsafeGuaranteedRef { newModel in
            if settings.foreignKey == nil {
                newModel.extras.hasOneOwner = owner
                newModel.extras.hasOnePath = type(of: owner).wireFormat.keys.wireName(for: key)
            }
            let links = DependentLinks.of(newModel) {
                // A map's models share their handler tables; the map keeps the append that shares them.
                owner.storedExtras?.unretainedRelatedModelSource?._withUnsafeGuaranteedRef(\.changeMarkerAppend)
            }
            links.add(self)
            dependents = links
        }
    }

    override func relatedModelDidChange() {
        guard !isMerging, let model else { return }
        // Retained for the call: the app's handlers of the owner's change may release it.
        let owner = self.owner
        withExtendedLifetime(owner) {
            owner.relationDidChange(self, mirror: mirror, nested: model, path: key)
        }
    }
}

/// `model` without a reference count, for a caller that keeps it alive.
///
/// Outside the generic link, as a `Model`: an `Unmanaged<Target>`, or an optional's `map`, made
/// ``OneLink/replace(with:)`` look type metadata up at run time on every call.
@inline(__always)
private func unretainedModel(_ model: Model?) -> Unmanaged<Model>? {
    guard let model else { return nil }
    return Unmanaged.passUnretained(model)
}
