import Observation

/// Raw storage for a model's Observation registrar (``Model/registrarStorage``), whose presence
/// the model's ``ObservationFlags`` say.
///
/// An `ObservationRegistrar?` would be stored and destroyed through the Observation library's
/// value witnesses (the library is resilient, so the optional's layout is known only at run
/// time): every model would pay a call to store its `nil` and another to destroy it, though
/// most models are never observed. One word that is zero until the first observed read is
/// stored and destroyed by plain instructions; the model's deinit destroys a registrar only
/// when its flags say there is one.
///
/// The registrar lives in the word when it fits (today it is one reference); a registrar of a
/// larger layout is allocated on its own and the word holds its address
/// (``ObservationFlags/registrarIsBoxed``).
struct RegistrarStorage {
    /// The registrar's bytes, the address of a boxed registrar, or zero.
    private var word: UInt = 0

    /// Whether a registrar fits in the word.
    static let holdsRegistrarInline =
        MemoryLayout<ObservationRegistrar>.size <= MemoryLayout<UInt>.size
        && MemoryLayout<ObservationRegistrar>.alignment <= MemoryLayout<UInt>.alignment

    /// The registrar held in the word, at `storage`; valid while the storage is.
    @inline(__always)
    static func inlineRegistrar(at storage: UnsafeMutablePointer<RegistrarStorage>)
        -> UnsafeMutablePointer<ObservationRegistrar>
    {
        UnsafeMutableRawPointer(storage).assumingMemoryBound(to: ObservationRegistrar.self)
    }

    /// The registrar at `storage`, held in the word or boxed as `flags` say; `flags` must have
    /// ``ObservationFlags/hasRegistrar``.
    static func registrar(at storage: UnsafeMutablePointer<RegistrarStorage>, flags: ObservationFlags)
        -> UnsafeMutablePointer<ObservationRegistrar>
    {
        guard flags.contains(.registrarIsBoxed) else { return inlineRegistrar(at: storage) }
        return UnsafeMutablePointer(bitPattern: storage.pointee.word).unsafelyUnwrapped
    }

    /// Creates a registrar at `storage`, which holds none, and returns the flags that say where.
    static func makeRegistrar(at storage: UnsafeMutablePointer<RegistrarStorage>) -> ObservationFlags {
        if holdsRegistrarInline {
            inlineRegistrar(at: storage).initialize(to: ObservationRegistrar())
            return .hasRegistrar
        }
        let box = UnsafeMutablePointer<ObservationRegistrar>.allocate(capacity: 1)
        box.initialize(to: ObservationRegistrar())
        storage.pointee.word = UInt(bitPattern: box)
        return [.hasRegistrar, .registrarIsBoxed]
    }

    /// Destroys the registrar at `storage` that `flags` say is there, leaving the word zero.
    static func destroyRegistrar(at storage: UnsafeMutablePointer<RegistrarStorage>, flags: ObservationFlags) {
        let registrar = registrar(at: storage, flags: flags)
        registrar.deinitialize(count: 1)
        if flags.contains(.registrarIsBoxed) { registrar.deallocate() }
        storage.pointee.word = 0
    }
}
