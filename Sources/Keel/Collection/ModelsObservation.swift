import Observation

/// Stands in for a collection in Observation: reading a collection's models registers an
/// access to this object, and changing them notifies it.
///
/// A non-generic object, so that registering a read costs no generic-metadata lookup: in a
/// `Collection<M>` used from another module, registering through the collection itself
/// looked up the metadata of `Collection<M>` and `[M]` on every read.
final class ModelsObservation: Observable {
    /// The key path of ``models``, built once per process (a key path literal is a runtime
    /// call each time it is evaluated) and kept by each instance, so that a read does not
    /// check that the shared one is initialized.
    ///
    /// Declared before the registrar, whose size is known only at run time, so that a read
    /// finds it at a fixed offset.
    private let modelsKeyPath = ModelsObservation.sharedModelsKeyPath

    private let registrar = ObservationRegistrar()

    /// What observers of the models track; the value itself means nothing.
    var models: Int { 0 }

    /// The one key path of ``models``.
    nonisolated(unsafe) private static let sharedModelsKeyPath: KeyPath<ModelsObservation, Int> =
        \ModelsObservation.models

    /// Registers a read of the models with the current observation, if any.
    func access() {
        registrar.access(self, keyPath: modelsKeyPath)
    }

    /// Tells observers that the models are about to change.
    func willSet() {
        registrar.willSet(self, keyPath: modelsKeyPath)
    }

    /// Tells observers that the models have changed.
    func didSet() {
        registrar.didSet(self, keyPath: modelsKeyPath)
    }
}
