import Observation
import Synchronization

/// Key paths that name single attributes, so that Observation can track each attribute of
/// a model separately. Subscript key paths are costly to build, so each is built once.
private let attributeKeyPaths = Mutex<[String: KeyPath<Model, JSONValue?>]>([:])

extension Model {
    /// The key path that stands for one attribute in Observation.
    static func keyPath(forAttribute key: String) -> KeyPath<Model, JSONValue?> {
        attributeKeyPaths.withLock { cache in
            if let keyPath = cache[key] { return keyPath }
            let keyPath = \Model.[observing: key]
            cache[key] = keyPath
            return keyPath
        }
    }

    /// The attribute, without registering a dependency; the identity of an attribute's key path.
    subscript(observing key: String) -> JSONValue? { storage[key] }

    /// The registrar, created on first use.
    var activeRegistrar: ObservationRegistrar {
        if let registrar { return registrar }
        let registrar = ObservationRegistrar()
        self.registrar = registrar
        return registrar
    }

    /// Registers an Observation dependency on one attribute.
    func observe(_ key: String) {
        activeRegistrar.access(self, keyPath: Self.keyPath(forAttribute: key))
    }

    /// Registers an Observation dependency on all attributes.
    func observeAttributes() {
        activeRegistrar.access(self, keyPath: \.attributes)
    }

    /// Replaces the attributes, telling Observation about each attribute that `set`
    /// changed.
    func commit(_ newStorage: Attributes, changedBy attributes: Attributes, from current: Attributes, unsetting: Bool) {
        guard let registrar else {
            storage = newStorage
            return
        }
        let keyPaths = attributes.compactMap { key, value in
            Self.changes(current, key, value, unsetting: unsetting) ? Self.keyPath(forAttribute: key) : nil
        }
        for keyPath in keyPaths { registrar.willSet(self, keyPath: keyPath) }
        registrar.willSet(self, keyPath: \.attributes)
        storage = newStorage
        registrar.didSet(self, keyPath: \.attributes)
        for keyPath in keyPaths { registrar.didSet(self, keyPath: keyPath) }
    }
}
