import Foundation

/// One live model per record: loading the same record twice gives the same instance, so an
/// edit made through one reference shows everywhere.
///
/// This is NSRails' and Core Data's find-or-insert by remote id, for related records too: a
/// model the map builds builds its relations' models through the map. The map is keyed by
/// collection path and id (`/notes` + `7`), never keeps a model alive (a model's deinit
/// removes its entry), and follows each model's id: a model that gets its id from a `create`
/// is registered then, one whose id changes moves, and a destroyed one is forgotten. `off()`
/// on a model does not stop the map following it.
///
/// Models are not `Sendable`, so neither is the map: create one per isolation domain (for
/// example one for the main actor's UI), next to the models it tracks, and release its models
/// there too. The backend it loads from can be shared by all of them.
///
/// ```swift
/// let store = try SQLiteSync(fileURL: url)
/// let map = IdentityMap()
/// let inbox = Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: store)
/// let starred = Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: store)
/// try await inbox.fetch()
/// try await starred.fetch(options: SyncOptions(query: ["starred": "true"]))
/// inbox.get(1) === starred.get(1)  // true: one instance per record
/// ```
public final class IdentityMap {
    /// The name under which a model's deinit hands itself to the maps' `destroy` followers.
    static let deinitEventName = "keel:deinit"

    // The map's own state opts out of run-time exclusivity checks: no access to it stays open
    // across a call into a model or the app (they ran on every read and write of a record).

    /// The live models by record (``RecordTable``), each entered once.
    let entries = RecordTable()
    /// The document whose linked records the map is stamping, and its stamp: see
    /// ``linkStamp(for:)``.
    @exclusivity(unchecked) var stampedDocument: JSONObject?
    @exclusivity(unchecked) var readStamp = 0
    /// The live model the last lookup found holding its record bit for bit, so that the
    /// relation linking it keeps the record as its mirror without comparing the two again
    /// (``takeExactCopy(of:)``); `nil` after any other lookup.
    @exclusivity(unchecked) var exactCopyModel: ObjectIdentifier?
    /// The collection paths of the keys, normalized, numbered in the order the map met them.
    @exclusivity(unchecked) private(set) var paths = CollectionPaths()
    /// Called with each model the map builds or registers and its collection path: how a
    /// ``Store`` comes to hold every record loaded through its map.
    var didAdopt: ((Model, String) -> Void)?
    /// Called with each class the map comes to know a collection or resource type of: how
    /// a ``Store``'s backend learns the classes (``ModelRegistrationReceiving``).
    var didRegister: ((ModelRegistration) -> Void)?
    /// How many collection paths may hold a number before the map gives back those no entry
    /// uses: twice as many as were used at the last release, so releasing costs O(1)
    /// amortized per path met.
    @exclusivity(unchecked) private var pathReleaseThreshold = IdentityMap.pathsKeptWithoutRelease
    /// The models the map is creating, innermost last: a record inside one that links back
    /// to it (a comment's article among that article's comments) gets the instance being built.
    @exclusivity(unchecked) private var pendingBuilds: [PendingBuild] = []
    /// The hooks the models of classes with relations are built with, once made: retained by
    /// hand and released by the map's deinit, so that a build borrows them (``hooked(_:relations:)``)
    /// instead of retaining and releasing them around the call.
    @exclusivity(unchecked) var madeBuildHooks: Unmanaged<BuildHooks>?
    /// The anchor the models the map built hold it through, while one of them lives; without a
    /// reference count, cleared by the anchor's deinit (``IdentityMapAnchor``).
    @exclusivity(unchecked) var liveAnchor: Unmanaged<IdentityMapAnchor>?
    /// How the owners the map builds add their place among a related model's `change` handlers
    /// (``DependentLinks``): the related models it built alike share their tables.
    private(set) lazy var changeMarkerAppend = SharedHandlerAppend(EventHandler.changeMarker, named: "change")
    /// The class and collection of each JSON:API resource type the map knows.
    var resourceTypes = ResourceTypeRegistry()
    /// The handlers that keep the entries in step with their models' ids, one set per
    /// collection path, shared by all of its models (see ``follow(_:in:)``).
    @exclusivity(unchecked) var followers: [String: ModelFollowers] = [:]
    /// The followers of each collection by its number in the keys, once a model was followed
    /// under it.
    ///
    /// A build follows its model by the number of the key it computed, where comparing a
    /// read's two alternating paths (an article's, its author's) cost about 60 instructions a
    /// model. Emptied when the numbers are released, which may reuse them.
    @exclusivity(unchecked) var followersByNumber: [ModelFollowers?] = []
    /// Each class's relations, resolved once (`nil` for a class without them), so that
    /// building a model of a class without them sets up nothing for related records, and one
    /// with them neither builds the class's list nor resolves it.
    @exclusivity(unchecked) private var classRelations: [ObjectIdentifier: ClassRelations?] = [:]
    /// The two classes ``relations(of:)`` answered for last, and their answers.
    @exclusivity(unchecked) private var recentClassRelations =
        RecentPair<ObjectIdentifier, Unmanaged<ClassRelations>?>()

    /// Creates an empty map.
    ///
    /// ```swift
    /// let map = IdentityMap()
    /// ```
    public init() {}

    deinit {
        guard let madeBuildHooks else { return }
        // The hooks may outlive the map in options kept elsewhere; they hold it unretained.
        madeBuildHooks._withUnsafeGuaranteedRef { $0.mapWillGo() }
        madeBuildHooks.release()
    }

    // MARK: - Finding or inserting

    /// ``anyModel(_:collection:attributes:options:)``, telling whether the model is new.
    func findOrInsert(
        _ type: Model.Type,
        collection: String,
        attributes: Attributes,
        options: ChangeOptions
    ) -> (model: Model, isNew: Bool) {
        exactCopyModel = nil
        // Only a server record not yet read through its class's wire format is copied, to be
        // read: any other is looked up as given (the copies cost a retain and a release each).
        guard options.parse == true && !options.wireFormatApplied else {
            return findOrInsert(type, collection: collection, attributes: attributes, options: options, sent: nil)
        }
        var attributes = attributes
        var options = options
        // The record as the server sent it, for the `remoteAttributes` of a class that keeps them.
        let sent = Self.readThroughWireFormat(&attributes, of: type)
        options.wireFormatApplied = true
        return findOrInsert(type, collection: collection, attributes: attributes, options: options, sent: sent)
    }

    /// ``findOrInsert(_:collection:attributes:options:)`` of a record read through its class's
    /// wire format, if it is a server record; `sent` is the record as the server sent it, kept
    /// as the `remoteAttributes` of a class that keeps them.
    private func findOrInsert(
        _ type: Model.Type,
        collection: String,
        attributes: Attributes,
        options: ChangeOptions,
        sent: JSONValue?
    ) -> (model: Model, isNew: Bool) {
        // The record's key, computed once: for the lookup, and for the new model's entry
        // when its id is the one it was built from.
        let id = attributes[type.idAttribute].flatMap { $0.isNull ? nil : $0 }
        let recordKey = id.map { key(collection, id: $0) }
        // A record a relation of a document read hands over: applied once per read.
        let stamp = options.linkedDocument.map(linkStamp(for:))
        if let recordKey, let entry = entries[recordKey] {
            let live = entry.model
            // The record being built carries this one in full; the link back holds its id only.
            if !pendingBuilds.isEmpty && pendingBuilds.contains(where: { $0.model == ObjectIdentifier(live) }) {
                return (live, false)
            }
            var match = UnchangedRecordMatch.changes
            if let stamp {
                // The read applied this document's record to the model already (a resource two
                // records link to).
                if entry.stamp == stamp { return (live, false) }
                live.set(attributes, options: options)
                markApplied(live, at: recordKey, stamp: stamp)
            } else {
                match = Self.unchangedRecordMatch(attributes, on: live, options: options)
                if match == .changes { live.set(attributes, options: options) }
            }
            if let sent { live.extras.remoteAttributes = sent }
            // A store that released the model (its records were garbage-collected) holds it again.
            didAdopt?(live, collection)
            if match == .sameBits { exactCopyModel = ObjectIdentifier(live) }
            return (live, false)
        }
        if let extras = options.extras, extras.expectedBuildCount > 0 { reserveCapacity(forBatchOf: extras) }
        let model: Model
        var insertedKey: RecordKey?
        if let relations = relations(of: type) {
            // Related records are built through the map, by hooks shared by all its models.
            // Taken by the initializer, which consumes its options: copied out of the closure
            // that captures them, they were retained and released around it.
            var hooked = Optional(relations._withUnsafeGuaranteedRef { self.hooked(options, relations: $0) })
            // The build's collection, id and key are lent to it while the initializer runs.
            let (built, registered, registeredKey) = withUnsafePointer(to: collection) { collection in
                withUnsafePointer(to: id) { id in
                    withUnsafePointer(to: recordKey) { key in
                        pendingBuilds.append(PendingBuild(type: type, collection: collection, id: id, key: key))
                        let built = type.init(attributes, options: hooked.take().unsafelyUnwrapped)
                        let build = pendingBuilds.removeLast()
                        return (built, build.model, build.insertedKey)
                    }
                }
            }
            model = built
            insertedKey = registeredKey
            // The shared factory does not keep the map alive; the model does, through the
            // map's anchor. A model that reached ``willBuildRelated(_:attributes:)`` was given
            // the anchor there.
            if registered != ObjectIdentifier(model) { model.extras.relatedModelBuilder = anchor }
        } else {
            model = type.init(attributes, options: options)
        }
        if let sent { model.extras.remoteAttributes = sent }
        // A model entered before it built its related models was followed then.
        if insertedKey == nil {
            if let recordKey {
                follow(model, in: collection, number: recordKey.collection)
            } else {
                follow(model, in: collection)
            }
        }
        // The model's id is most often its record's, copied: compared where both lie, by their
        // bits, before either is copied (an id that is not `null` has the record's key).
        let hasRecordID = withUnsafeMutablePointer(to: &model.storedID) { modelID in
            withUnsafePointer(to: id) { id in SameBits.compare(modelID, id, size: MemoryLayout<JSONValue?>.size) }
        }
        let modelKey =
            hasRecordID
            ? recordKey
            : model.storedID.flatMap { modelID in
                modelID.isNull
                    ? nil
                    : id.map { Self.isSameID(modelID, $0) } == true
                        ? recordKey.unsafelyUnwrapped : key(collection, id: modelID)
            }
        if modelKey != insertedKey {
            // Entered under the id its record gave, the model came out with another (or none):
            // one entry, under the id its deinit will look up.
            if let insertedKey, entries[insertedKey]?.holds(model) == true { entries.removeEntry(for: insertedKey) }
            if let modelKey { insert(Entry(model, stamp: stamp ?? 0), for: modelKey) }
        } else if let stamp, let modelKey {
            markApplied(model, at: modelKey, stamp: stamp)
        }
        didAdopt?(model, collection)
        return (model, true)
    }

    /// Registers the model being built (the innermost pending build) under the id of its
    /// attributes before it builds its related models: ``ChangeOptions/willBuildRelated``.
    func willBuildRelated(_ model: Model, attributes: Attributes) {
        guard let last = pendingBuilds.indices.last, pendingBuilds[last].model == nil else { return }
        // Named before the relations build: the model's related records then go straight to
        // the map (``Model/makeRelated(_:resource:_:options:)``), without options copied to
        // carry the factory that the map replaces with its own hooks anyway.
        model.withExtras { $0.relatedModelBuilder = anchor }
        pendingBuilds[last].model = ObjectIdentifier(model)
        // The pending build's fields are read in place: a copy of it retained and released each.
        // A record's few keys are compared where they lie, by their bits first, without the call
        // that looks a key up in an object of any size.
        let idAttribute = pendingBuilds[last].type.idAttribute
        var found: Int?
        if attributes.count <= 8 {
            for position in 0..<attributes.count
            where StringIdentity.equal(attributes.keyAddress(at: position).pointee, idAttribute) {
                found = position
                break
            }
        } else {
            found = attributes.index(forKey: idAttribute)
        }
        guard let position = found else { return }
        let key: RecordKey
        // The id is compared where it lies, by its bits first: it is most often the record's,
        // copied, and copying it out called out to copy and destroy it. An id the build was
        // asked for is never `null`, so the same bits are a usable id.
        if case .some = pendingBuilds[last].id.pointee,
            // An optional keeps its wrapped value's bits at offset zero (docs/ABI/TypeLayout.rst).
            JSONValue.haveSameBits(
                UnsafeRawPointer(attributes.valueAddress(at: position)),
                UnsafeRawPointer(pendingBuilds[last].id)
            )
        {
            key = pendingBuilds[last].key.pointee.unsafelyUnwrapped
        } else {
            let parsedID = attributes.value(at: position)
            guard !parsedID.isNull else { return }
            let isPendingID = pendingBuilds[last].id.pointee.map { Self.isSameID(parsedID, $0) } ?? false
            key =
                isPendingID
                ? pendingBuilds[last].key.pointee.unsafelyUnwrapped
                : self.key(pendingBuilds[last].collection.pointee, id: parsedID)
        }
        // Followed at once: whatever becomes of the build, the model's deinit finds the map. The
        // collection's path is read only for a collection without followers yet: read, it was
        // copied out of the pending build, retained and released.
        if !followKnown(model, number: key.collection) {
            follow(model, in: pendingBuilds[last].collection.pointee, number: key.collection)
        }
        insert(Entry(model), for: key)
        pendingBuilds[last].insertedKey = key
    }

    /// Whether the ids `a` and `b` are equal, by their bits first: a record's id and the one
    /// its build was asked for are most often one value copied, and `==` is a call out of line.
    @inline(__always)
    private static func isSameID(_ a: JSONValue, _ b: JSONValue) -> Bool {
        let sameBits = withUnsafePointer(to: a) { a in
            withUnsafePointer(to: b) { b in JSONValue.haveSameBits(a, b) }
        }
        return sameBits || a == b
    }

    /// The relations of models of `type`, asked of the class once; `nil` when it has none.
    ///
    /// Without a reference count: the map keeps each class's answer for its whole life
    /// (``classRelations``), and the recent two are remembered unretained, so that a build
    /// neither retains nor releases them.
    private func relations(of type: Model.Type) -> Unmanaged<ClassRelations>? {
        let identifier = ObjectIdentifier(type)
        // A fetch builds models of one class, or of two (a record and the one it links to):
        // the recent answers, before hashing.
        if let recent = recentClassRelations.value(for: identifier) { return recent }
        let answer: ClassRelations?
        if let known = classRelations[identifier] {
            answer = known
        } else {
            let declared = type.relations
            answer =
                declared.isEmpty
                ? nil : ClassRelations(type, implementations: ResolvedRelations.implementations(of: type, declared))
            classRelations[identifier] = answer
        }
        let unretained = answer.map(Unmanaged.passUnretained)
        recentClassRelations.remember(unretained, for: identifier)
        return unretained
    }

    // MARK: - Registering

    /// Registers a model that was created elsewhere as the instance for its record.
    ///
    /// Registering the instance that is already registered does nothing.
    ///
    /// ```swift
    /// let note = Note(["title": "Groceries"])
    /// try await note.save()
    /// try map.register(note, collection: "/notes")
    /// ```
    ///
    /// - Parameters:
    ///   - model: A model with an id.
    ///   - collection: The collection path, such as `/notes`.
    /// - Throws: ``IdentityMapError/conflict(collection:id:existingType:)`` when a different
    ///   live instance holds this id; ``IdentityMapError/missingID(collection:)`` when the
    ///   model has no id.
    public func register(_ model: Model, collection: String) throws(IdentityMapError) {
        guard let id = model.id, !id.isNull else { throw .missingID(collection: collection) }
        let key = self.key(collection, id: id)
        if let entry = entries[key] {
            if entry.holds(model) { return }
            let live = entry.model
            throw .conflict(
                collection: paths.name(of: key.collection),
                id: key.id.text,
                existingType: String(describing: type(of: live))
            )
        }
        insert(Entry(model), for: key)
        follow(model, in: collection, number: key.collection)
        didAdopt?(model, collection)
    }

    /// Starts tracking a model created elsewhere: registered at once when it has an id,
    /// else as soon as it gets one.
    ///
    /// - Throws: ``IdentityMapError/conflict(collection:id:existingType:)`` when a different
    ///   live instance holds its id.
    package func adopt(_ model: Model, collection: String) throws(IdentityMapError) {
        if let id = model.id, !id.isNull {
            try register(model, collection: collection)
            return
        }
        follow(model, in: collection)
        didAdopt?(model, collection)
    }

    /// The key of a record in `collection`.
    func key(_ collection: String, id: JSONValue) -> RecordKey {
        RecordKey(collection: paths.number(of: collection), id: RecordID(id))
    }

    /// The number of `collection`'s normal form in the map's keys.
    func collectionNumber(of collection: String) -> Int {
        paths.number(of: collection)
    }

    /// Makes room for `count` more entries, ahead of a batch of known size.
    func reserveCapacity(adding count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// Makes room for the records of the update whose models share `extras`
    /// (``ChangeOptions/expectedBuildCount``), at its first new model, instead of the table
    /// growing step by step.
    ///
    /// The count is taken from the storage, once: the collection makes that storage for the
    /// update, and every model of the update shares it. (Its address cannot tell updates
    /// apart: one update's storage, freed, is often the next one's.)
    private func reserveCapacity(forBatchOf extras: ChangeOptions.Extras) {
        reserveCapacity(adding: extras.expectedBuildCount)
        extras.expectedBuildCount = 0
    }

    /// Enters `entry` under `key`, marking its model as one whose deinit must tell the map.
    func insert(_ entry: Entry, for key: RecordKey) {
        let model = entry.reference
        model._withUnsafeGuaranteedRef { $0.isIdentityMapped = true }
        entries.insert(entry, for: key)
        if paths.count > pathReleaseThreshold { releaseUnusedPaths() }
    }

    /// Gives back the numbers of the collection paths no entry uses, once the map numbers
    /// more than ``pathReleaseThreshold`` paths: a map that met a nested collection per
    /// user does not keep a number for every path it ever saw.
    private func releaseUnusedPaths() {
        // Between builds no key is held outside the table, so the paths no entry uses can go.
        guard pendingBuilds.isEmpty else { return }
        paths.release(keeping: Set(entries.lazy.map(\.key.collection)))
        followersByNumber.removeAll(keepingCapacity: true)
        pathReleaseThreshold = max(Self.pathsKeptWithoutRelease, 2 * paths.count)
    }

    /// How many collection paths the map numbers before it first releases unused ones.
    private static let pathsKeptWithoutRelease = 64

    /// How many collection paths hold a number (for tests).
    var numberedPathCount: Int { paths.count }
}

/// A model the map is building: its class, collection and the key of the record it was
/// asked for, and what ``IdentityMap/willBuildRelated(_:attributes:)`` recorded.
///
/// The collection, id and key are read where ``IdentityMap/findOrInsert(_:collection:attributes:options:)``
/// holds them, lent for the initializer's run: copies of them retained and released each,
/// about a hundred instructions for every model built with relations.
private struct PendingBuild {
    let type: Model.Type
    let collection: UnsafePointer<String>
    let id: UnsafePointer<JSONValue?>
    let key: UnsafePointer<RecordKey?>
    var model: ObjectIdentifier?
    var insertedKey: RecordKey?
}
