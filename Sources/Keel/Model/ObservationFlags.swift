/// A model's Observation state in one byte (``Model/observationFlags``): whether its
/// registrar exists and where, and whether its reads are reported for now.
struct ObservationFlags: OptionSet, Equatable {
    let rawValue: UInt8

    /// ``Model/registrarStorage`` holds a registrar.
    static let hasRegistrar = ObservationFlags(rawValue: 1)
    /// Reads are not reported to Observation (``Model/readingUnobserved(_:)``).
    static let isUnobserved = ObservationFlags(rawValue: 2)
    /// The registrar did not fit in ``Model/registrarStorage``, which holds the address of
    /// one allocated on its own (``RegistrarStorage``).
    static let registrarIsBoxed = ObservationFlags(rawValue: 4)
}
