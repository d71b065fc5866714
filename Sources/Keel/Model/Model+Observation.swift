import Observation

/// Key paths that name single attributes, so that Observation can track each attribute of a model
/// separately.
///
/// Subscript key paths are costly to build, so recently used ones are kept, up to a bound.
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

    /// Registers a read of the property at `keyPath` with the current observation, if any,
    /// creating the model's registrar on its first read; nothing while reads are unobserved
    /// (``readingUnobserved(_:)``).
    @inline(__always)
    func observe<Member>(_ keyPath: KeyPath<Model, Member>) {
        guard observationFlags == .hasRegistrar else {
            observeWithoutInlineRegistrar(keyPath)
            return
        }
        // The flags say the storage holds a registrar in place, so it is reached without a
        // test or a copy.
        withUnsafeMutablePointer(to: &registrarStorage) { storage in
            RegistrarStorage.inlineRegistrar(at: storage).pointee.accessInPlace(self, keyPath: keyPath)
        }
    }

    /// ``observe(_:)`` for a model whose registrar is not yet created, is boxed, or whose
    /// reads are unobserved: out of line, so that the reads that find it stay small.
    @inline(never)
    private func observeWithoutInlineRegistrar<Member>(_ keyPath: KeyPath<Model, Member>) {
        if observationFlags.contains(.isUnobserved) { return }
        if !observationFlags.contains(.hasRegistrar) {
            let flags = withUnsafeMutablePointer(to: &registrarStorage) { RegistrarStorage.makeRegistrar(at: $0) }
            observationFlags.formUnion(flags)
        }
        withRegistrar { $0.accessInPlace(self, keyPath: keyPath) }
    }

    /// Calls `body` with the model's registrar in place; the model must have one.
    @inline(__always)
    private func withRegistrar<Result>(_ body: (inout ObservationRegistrar) -> Result) -> Result {
        let flags = observationFlags
        return withUnsafeMutablePointer(to: &registrarStorage) { storage in
            body(&RegistrarStorage.registrar(at: storage, flags: flags).pointee)
        }
    }

    /// The model's registrar, or `nil` before its first observed read.
    var registrar: ObservationRegistrar? {
        guard observationFlags.contains(.hasRegistrar) else { return nil }
        return withRegistrar { $0 }
    }

    /// Destroys the model's registrar, which it has: from its deinit.
    func destroyRegistrar() {
        let flags = observationFlags
        withUnsafeMutablePointer(to: &registrarStorage) { RegistrarStorage.destroyRegistrar(at: $0, flags: flags) }
        observationFlags.subtract([.hasRegistrar, .registrarIsBoxed])
    }

    /// Whether ``registrar`` has been created.
    var hasRegistrar: Bool { observationFlags.contains(.hasRegistrar) }

    /// Runs `body` with the model's reads not reported to Observation: how a live query reads a
    /// model to evaluate its filter, which no view depends on through the model (views depend
    /// on the query's results), and which would otherwise give every model it loads a registrar.
    @inline(__always)
    func readingUnobserved<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        if observationFlags.contains(.isUnobserved) { return try body() }
        observationFlags.insert(.isUnobserved)
        defer { observationFlags.remove(.isUnobserved) }
        return try body()
    }

    /// The key paths of whole-model properties, built once (a key path literal is a runtime call
    /// each time it is evaluated).
    ///
    /// Key paths are immutable, so sharing them across isolation domains is safe although
    /// `KeyPath<Model, _>` is not `Sendable`.
    nonisolated(unsafe) static let attributesKeyPath: KeyPath<Model, Attributes> = \.attributes
    nonisolated(unsafe) static let validationErrorKeyPath: KeyPath<Model, ValidationError?> = \.validationError

    /// Registers an Observation dependency on one attribute: through its layout slot's key
    /// path when the model has the attribute, without a lock or hashing; an attribute the
    /// model lacks has its key path looked up only while reads are observed.
    func observe(_ key: String) {
        if let slot = layout.slot(of: key) {
            observe(slot: slot)
        } else if !observationFlags.contains(.isUnobserved) {
            observe(Self.keyPath(forAttribute: key))
        }
    }

    /// Registers an Observation dependency on the attribute in `slot` of the model's layout.
    ///
    /// The key path is lent to the registrar straight from the layout, which the model
    /// holds: it is not retained and released around the call (the registrar calls nothing
    /// that could change the model's layout).
    @inline(__always)
    func observe(slot: Int) {
        let keyPath = layout.keyPaths.withUnsafeBufferPointer { Unmanaged.passUnretained($0[slot]) }
        keyPath._withUnsafeGuaranteedRef { observe($0) }
    }

    /// Registers an Observation dependency on all attributes.
    func observeAttributes() {
        observe(Self.attributesKeyPath)
    }

    /// Replaces the attributes with `newStorage`, whose keys are `layout`'s, telling Observation
    /// through the layout's key paths about each attribute that `set` changed: the entries of
    /// `attributes` at `changes`.
    ///
    /// - Parameter replacingLayout: Whether `layout` is not the model's yet (the `set` added
    ///   keys): it becomes the model's with the new storage.
    func commit(
        _ newStorage: Attributes,
        changes: PositionSet,
        of attributes: Attributes,
        layout: AttributeLayout,
        replacingLayout: Bool = false
    ) {
        guard let registrar else {
            storage = newStorage
            if replacingLayout { self.layout = layout }
            return
        }
        for position in changes {
            guard let slot = layout.slot(of: attributes[position].key) else { continue }
            registrar.willSet(self, keyPath: layout.keyPaths[slot])
        }
        registrar.willSet(self, keyPath: Self.attributesKeyPath)
        storage = newStorage
        if replacingLayout { self.layout = layout }
        registrar.didSet(self, keyPath: Self.attributesKeyPath)
        for position in changes {
            guard let slot = layout.slot(of: attributes[position].key) else { continue }
            registrar.didSet(self, keyPath: layout.keyPaths[slot])
        }
    }

    /// Replaces the attributes, telling Observation about each attribute that `set`
    /// changed.
    func commit(_ newStorage: Attributes, changedBy attributes: Attributes, from current: Attributes, unsetting: Bool) {
        guard let registrar else {
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

extension ObservationRegistrar {
    /// `access(_:keyPath:)` as a mutating method, so that calling it through the model's
    /// optional registrar (`registrar!.accessInPlace(…)`) uses the registrar where it is
    /// stored instead of a copy.
    @inline(__always)
    fileprivate mutating func accessInPlace<Subject: Observable, Member>(
        _ subject: Subject,
        keyPath: KeyPath<Subject, Member>
    ) {
        access(subject, keyPath: keyPath)
    }
}
