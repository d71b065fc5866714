/// A model's Observation state in one byte (``Model/observationFlags``): whether its
/// registrar exists, and whether its reads are reported for now.
struct ObservationFlags: OptionSet, Equatable {
    let rawValue: UInt8

    /// ``Model/registrar`` has been created.
    static let hasRegistrar = ObservationFlags(rawValue: 1)
    /// Reads are not reported to Observation (``Model/readingUnobserved(_:)``).
    static let isUnobserved = ObservationFlags(rawValue: 2)
}
