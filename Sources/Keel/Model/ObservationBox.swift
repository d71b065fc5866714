import Observation

/// Holds a model's Observation registrar.
///
/// `ObservationRegistrar` is a resilient struct from another module, so an optional one
/// stored in the model was copied and destroyed through value-witness calls on every
/// observed read; a box of our own is one plain reference.
final class ObservationBox {
    let registrar = ObservationRegistrar()
}
