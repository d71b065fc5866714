import Observation

/// Key paths that name single attributes, so that Observation can track each attribute of
/// a model separately. Subscript key paths are costly to build, so recently used ones are
/// kept, up to a bound.
private let attributeKeyPaths = Lock(AttributeKeyPathTable())

extension Model {
    /// The key path that stands for one attribute in Observation.
    static func keyPath(forAttribute key: String) -> KeyPath<Model, JSONValue?> {
        attributeKeyPaths.withLock { table in
            table.path(for: key) { \Model.[observing: key] }
        }
    }

    /// How many attribute key paths are cached for reuse.
    static var cachedAttributeKeyPathCount: Int {
        attributeKeyPaths.withLock { $0.count }
    }

    /// The attribute, without registering a dependency; the identity of an attribute's key path.
    subscript(observing key: String) -> JSONValue? { storage[key] }

    /// The registrar's box, created on first use.
    var observation: ObservationBox {
        if let observationBox { return observationBox }
        return makeObservationBox()
    }

    /// The registrar's box, created on first use, without a reference count of its own:
    /// the model holds it.
    @inline(__always)
    var unretainedObservation: Unmanaged<ObservationBox> {
        if let box = observationBox.map(Unmanaged.passUnretained) { return box }
        return Unmanaged.passUnretained(makeObservationBox())
    }

    /// Creates the registrar's box: out of line, so that the reads that find it stay small.
    @inline(never)
    private func makeObservationBox() -> ObservationBox {
        let box = ObservationBox()
        observationBox = box
        return box
    }

    /// The key paths of whole-model properties, built once (a key path literal is a
    /// runtime call each time it is evaluated). Key paths are immutable, so sharing them
    /// across isolation domains is safe although `KeyPath<Model, _>` is not `Sendable`.
    nonisolated(unsafe) static let attributesKeyPath: KeyPath<Model, Attributes> = \.attributes
    nonisolated(unsafe) static let validationErrorKeyPath: KeyPath<Model, ValidationError?> = \.validationError

    /// Registers an Observation dependency on one attribute: through its layout slot's key
    /// path when the model has the attribute, without a lock or hashing.
    func observe(_ key: String) {
        if let slot = layout.slot(of: key) {
            observe(slot: slot)
        } else {
            observation.access(self, keyPath: Self.keyPath(forAttribute: key))
        }
    }

    /// Registers an Observation dependency on the attribute in `slot` of the model's layout.
    ///
    /// The key path is lent to the registrar straight from the layout, which the model
    /// holds, and so is the box: neither is retained and released around the call (the
    /// registrar calls nothing that could change the model's layout).
    @inline(__always)
    func observe(slot: Int) {
        let keyPath = layout.keyPaths.withUnsafeBufferPointer { Unmanaged.passUnretained($0[slot]) }
        unretainedObservation._withUnsafeGuaranteedRef { box in
            keyPath._withUnsafeGuaranteedRef { box.access(self, keyPath: $0) }
        }
    }

    /// Registers an Observation dependency on all attributes.
    func observeAttributes() {
        observation.access(self, keyPath: Self.attributesKeyPath)
    }

    /// Replaces the attributes with values written by slot into a copy of `current`, whose
    /// keys are `layout`'s (so the layout stays), telling Observation through the layout's
    /// key paths about each attribute that `set` changed: the entries of `attributes` at
    /// `changes`.
    func commit(
        _ newStorage: Attributes,
        changes: PositionSet,
        of attributes: Attributes,
        layout: AttributeLayout
    ) {
        guard let registrar = observationBox?.registrar else {
            storage = newStorage
            return
        }
        for position in changes {
            guard let slot = layout.slot(of: attributes[position].key) else { continue }
            registrar.willSet(self, keyPath: layout.keyPaths[slot])
        }
        registrar.willSet(self, keyPath: Self.attributesKeyPath)
        storage = newStorage
        registrar.didSet(self, keyPath: Self.attributesKeyPath)
        for position in changes {
            guard let slot = layout.slot(of: attributes[position].key) else { continue }
            registrar.didSet(self, keyPath: layout.keyPaths[slot])
        }
    }

    /// Replaces the attributes, telling Observation about each attribute that `set`
    /// changed.
    func commit(_ newStorage: Attributes, changedBy attributes: Attributes, from current: Attributes, unsetting: Bool) {
        guard let registrar = observationBox?.registrar else {
            replaceStorage(newStorage)
            return
        }
        let keyPaths = attributes.compactMap { key, value in
            Self.changes(current, key, value, unsetting: unsetting) ? Self.keyPath(forAttribute: key) : nil
        }
        for keyPath in keyPaths { registrar.willSet(self, keyPath: keyPath) }
        registrar.willSet(self, keyPath: Self.attributesKeyPath)
        replaceStorage(newStorage)
        registrar.didSet(self, keyPath: Self.attributesKeyPath)
        for keyPath in keyPaths { registrar.didSet(self, keyPath: keyPath) }
    }

    /// Replaces the attributes with `newStorage`, moving the model to the layout of its keys.
    func replaceStorage(_ newStorage: Attributes) {
        storage = newStorage
        layout = layout.matching(newStorage)
    }
}
