import Observation

/// Holds a model's Observation registrar.
///
/// `ObservationRegistrar` is a resilient struct from another module, so an optional one
/// stored in the model was copied and destroyed through value-witness calls on every
/// observed read; a box of our own is one plain reference.
final class ObservationBox {
    let registrar = ObservationRegistrar()

    /// Registers a read of one of `model`'s properties with the current observation, if any.
    ///
    /// A method of the box, so that the registrar is used where it is stored: reading it out
    /// of the box copied it (a value-witness call and a retain and release of its storage)
    /// on every read.
    @inline(never)
    func access<Member>(_ model: Model, keyPath: KeyPath<Model, Member>) {
        registrar.access(model, keyPath: keyPath)
    }
}
