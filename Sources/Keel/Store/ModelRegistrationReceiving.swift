/// A backend that learns the model classes a ``Store`` registers, such as KeelSQLite's
/// `CachingSync`, which stores a JSON:API document's `included` resources in the
/// collection of their type.
///
/// A store tells its backend every class it registers, at that moment: the classes it is
/// asked for (``Store/collection(_:comparator:)``, `query`, ``Store/find(_:id:)``, ``Store/register(_:path:policy:staleTime:gcTime:rollsBackFailedSaves:)``),
/// the targets of their relations, the classes of the models its identity map builds, and
/// the types the app registers in the map (``IdentityMap/registerResourceType(_:for:collection:)``),
/// including those registered before the store was made. The decorators Keel ships
/// (``LoggingSync``, ``RetryingSync``, ``DeduplicatingSync`` and the others with a `base`)
/// forward what they learn to the backend they wrap, so the backend learns it anywhere in
/// the chain.
///
/// ### Implementation requirements
///
/// - ``register(_:)`` is called on the store's isolation domain (usually the main actor)
///   while the store is registering a class: return quickly, and keep what you learn behind
///   a lock, since requests read it from other threads.
/// - A class may be told more than once; later registrations of one resource type replace
///   earlier ones.
/// - A decorator forwards each registration to the backend it wraps when that backend
///   adopts the protocol.
///
/// ```swift
/// final class TypeRecordingSync: ModelRegistrationReceiving {
///     let base: any Sync
///     let types = Mutex<[String: String]>([:])
///     init(_ base: any Sync) { self.base = base }
///     func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
///         try await base.perform(request)
///     }
///     func register(_ registration: ModelRegistration) {
///         guard let name = registration.resourceType else { return }
///         types.withLock { $0[name] = registration.collection }
///     }
/// }
/// ```
public protocol ModelRegistrationReceiving: Sync {
    /// Learns a class the store registered.
    ///
    /// ```swift
    /// backend.register(ModelRegistration(type: Comment.self, collection: "/comments", resourceType: "comments"))
    /// ```
    ///
    /// - Parameter registration: The class, its collection path and its resource type.
    func register(_ registration: ModelRegistration)
}

extension Sync {
    /// Forwards a registration to this backend when it learns registrations.
    func forwardRegistration(_ registration: ModelRegistration) {
        (self as? any ModelRegistrationReceiving)?.register(registration)
    }
}
