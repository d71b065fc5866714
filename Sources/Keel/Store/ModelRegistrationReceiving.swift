/// A backend that learns the model classes a ``Store`` registers, such as KeelSQLite's
/// `CachingSync`, which stores a JSON:API document's `included` resources in the
/// collection of their type.
///
/// A store tells its backend every class it registers, at that moment: the classes it is
/// asked for (``Store/collection(_:comparator:)``, `query`, ``Store/find(_:id:)``, ``Store/register(_:path:policy:staleTime:gcTime:rollsBackFailedSaves:)``),
/// the targets of their relations, the classes of the models its identity map builds, and
/// the types the app registers in the map (``IdentityMap/registerResourceType(_:for:collection:)``),
/// including those registered before the store was made. The backend learns them anywhere
/// in a chain of decorators (``SyncDecorator``): the store tells the first backend of the
/// chain that adopts this protocol.
///
/// ### Implementation requirements
///
/// - ``register(_:)`` is called on the store's isolation domain (usually the main actor)
///   while the store is registering a class: return quickly, and keep what you learn behind
///   a lock, since requests read it from other threads.
/// - A class may be told more than once; later registrations of one resource type replace
///   earlier ones.
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
    /// Tells a registration to this backend, or the first down its decorator chain, that
    /// learns registrations.
    func forwardRegistration(_ registration: ModelRegistration) {
        backend(as: (any ModelRegistrationReceiving).self)?.register(registration)
    }
}
