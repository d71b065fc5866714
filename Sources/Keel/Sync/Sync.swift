/// A backend that stores and loads models: REST over HTTP, memory, a local database, or
/// anything you plug in.
///
/// A backend has one requirement, which takes one ``SyncRequest`` value and returns one
/// ``SyncResponse``. Models and collections build the request (method, URL, JSON body),
/// emit `request`, call the backend, then parse the response and emit `sync` or `error`.
///
/// ```swift
/// struct LoggingSync<Base: Sync>: Sync {
///     let base: Base
///     func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
///         print(request.method, request.url)
///         return try await base.perform(request)
///     }
/// }
/// ```
///
/// ### Implementation requirements
///
/// - Answer `create` with the stored record, including its assigned id (status 201).
/// - Answer `read` of a record with it, of a list with a JSON array; a missing record throws
///   ``SyncError/httpStatus(_:body:)`` with status 404 (a remote backend) or
///   ``SyncError/storeRefused(_:)`` (a local store), so that ``SyncError/isNotFound`` is `true`.
/// - Answer `delete` with status 204 and no body (or 200 with a body).
/// - Throw ``SyncError/validationFailed(_:status:)`` for records the backend rejects.
/// - Throw ``SyncError/cancelled`` when the calling task is cancelled.
/// - Keep shared state behind a `Mutex` or an actor: one backend serves many models, from
///   any isolation domain.
/// - Ignore request fields you don't understand; new ones are added over time.
public protocol Sync: Sendable {
    /// Performs one persistence operation.
    ///
    /// ```swift
    /// let response = try await sync.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation, URL and body.
    /// - Returns: The backend's answer.
    /// - Throws: ``SyncError`` when the operation fails.
    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse
}
