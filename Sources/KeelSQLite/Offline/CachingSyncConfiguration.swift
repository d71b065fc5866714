public import Keel

extension CachingSync {
    /// How a ``CachingSync`` reads, detects conflicts and rewrites temporary ids, for all
    /// collections and per collection.
    ///
    /// Per-collection settings are keyed by collection path (`/notes`) and also apply to
    /// the records under it (`/notes/7`). ``register(_:collection:readPolicy:versionCheck:conflictPolicy:)``
    /// sets them for a model class and adds its `BelongsTo` foreign keys.
    ///
    /// ```swift
    /// var configuration = CachingSync.Configuration()
    /// configuration.defaultReadPolicy = .localThenRemote
    /// configuration.register(Book.self, versionCheck: .attribute("updated_at"), conflictPolicy: .clientWins)
    /// let cache = CachingSync(remote: rest, local: local, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The read policy of collections without their own: ``ReadPolicy/remoteFirst``.
        public var defaultReadPolicy = ReadPolicy.remoteFirst
        /// Read policies by collection path.
        public var readPolicies: [String: ReadPolicy] = [:]
        /// How conflicts are detected where no collection setting applies: not at all.
        public var defaultVersionCheck = VersionCheck.none
        /// Conflict detection by collection path.
        public var versionChecks: [String: VersionCheck] = [:]
        /// Who wins a conflict where no collection setting applies: the server.
        public var defaultConflictPolicy = ConflictPolicy.serverWins
        /// Conflict policies by collection path.
        public var conflictPolicies: [String: ConflictPolicy] = [:]
        /// The foreign keys to rewrite when a temporary id is replaced.
        public var foreignKeys: [ForeignKey] = []
        /// Whether a write is sent at once (after the changes queued before it) when the
        /// remote is reachable; `false` only queues it until ``CachingSync/replay()``.
        ///
        /// The write waits for that attempt: against a remote that refuses connections
        /// while offline this costs nothing, but a remote that times out makes every write
        /// wait for the timeout. Set it to `false` there, and replay in the background.
        public var sendsImmediately = true
        /// Called with the report of every replay that sent or settled something, including
        /// the replays that writes start: hand it to your isolation domain's
        /// `IdentityMap/apply(_:)` so live models get server ids and states.
        ///
        /// ```swift
        /// configuration.onReplay = { report in Task { @MainActor in map.apply(report) } }
        /// ```
        public var onReplay: (@Sendable (ReplayReport) -> Void)?
        /// The list URLs answered from a subset of another collection's records, in the order
        /// registered; when several match a URL, the last one registered wins.
        ///
        /// ```swift
        /// configuration.scopedLists.map(\.route)  // ["/users/:id/todos"]
        /// ```
        public var scopedLists: [ScopedList] = []
        /// The server's Atomic Operations endpoint, to replay the queued JSON:API changes as one
        /// ordered, all-or-nothing request; `nil` (the default) sends every change on its own.
        ///
        /// A replay sends first, in one request to the endpoint (resolved like any URL of the
        /// remote), the queued changes of `WireFormat.jsonAPI` records that can go
        /// together: pending ones whose record has no earlier change left out, naming records
        /// created offline only through the batch's own creates, except the updates and
        /// deletes a ``VersionCheck`` checks for conflicts (one change at a time). The request
        /// carries the remote's own headers, not each queued request's. A create goes as an
        /// `add` whose `lid` is its ``TemporaryID``, and later operations name that record by
        /// `{"type", "lid"}`: an update's or removal's own target, and the relationship linkage
        /// of children. The other changes follow one request each, in queue order, after the
        /// batch.
        ///
        /// - An applied batch is recorded as if each change had been sent alone: the server's
        ///   records are stored, temporary ids replaced everywhere (``TemporaryID``), and the
        ///   ``ReplayReport`` lists each change in ``ReplayReport/sent``
        ///   (``ReplayReport/sentAtomically`` counts them). A create whose result names no
        ///   record stays queued as failed with `SyncError.atomicBatchCommitted(unmapped:reason:)`:
        ///   the server has it, so fetch it rather than retry.
        /// - A refused batch (a 4xx) changes no local record and keeps every change queued.
        ///   Each error object whose `source.pointer` names an operation
        ///   (`/atomic:operations/1/data/attributes/title`) is recorded against that change as
        ///   its own refusal would be (failed, or a conflict for a 409), with the pointer made
        ///   relative (`/data/attributes/title`); when none names one, the server's error is
        ///   recorded against every change of the batch. The changes no error names stay
        ///   pending for the next replay.
        /// - A server without the extension (404, 405, 406 or 415 from the endpoint) gets one
        ///   request per change, and ``ReplayReport/atomicFallback`` holds its answer.
        /// - A network failure, a timeout or a 5xx keeps the whole queue; the next replay
        ///   sends the same batch again, with the same `Idempotency-Key` (derived from the
        ///   changes' own keys). When the server applied the batch but its answer was lost, a
        ///   server that honours the header answers the resend with the stored results, and
        ///   nothing is applied twice. A server that does not honour it applies the batch
        ///   again (at-least-once): creates are made twice. The key only matches when the
        ///   same changes go together, so changes queued or discarded between the lost answer
        ///   and the resend make a new batch.
        ///
        /// ```swift
        /// configuration.atomicOperations = AtomicOperations(endpoint: URL(string: "/jsonapi/operations"))
        /// ```
        public var atomicOperations: AtomicOperations?

        /// The collection path of each JSON:API resource type, by type (`"comments"` →
        /// `"/comments"`), as the app sets it: where the cache stores a resource of that type
        /// that a document carries in `included`, and where it finds the resources a local
        /// answer includes.
        ///
        /// A `Store` needs none of this: it tells its cache every class it registers
        /// (``CachingSync/register(_:)``), also after the cache was made, and the cache uses
        /// ``CachingSync/resourceTypes``, these paths first, then the learned ones. Set a type
        /// here only to keep it under another path than its class's, or for a cache used
        /// without a store. ``register(_:collection:readPolicy:versionCheck:conflictPolicy:)``
        /// adds a JSON:API class's own type, and ``registerResourceTypes(of:)`` copies an
        /// `IdentityMap`'s registry; a type listed here keeps its path.
        ///
        /// An included resource of a type nobody registered is stored where JSON:API servers
        /// route the type by default: at the type's name beside the collection the document's
        /// primary data came from (`people` included in a `/jsonapi/articles` list goes in
        /// `/jsonapi/people`, in a `/articles` list in `/people`; Drupal's `user--user` beside
        /// `/jsonapi/node/article` in `/jsonapi/user/user`). A local answer looks for a linked
        /// resource in its type's path, then there. A type that is not safe as path segments
        /// (other than letters, digits, `-`, `_` and `.`, or `..`) is not stored.
        ///
        /// ```swift
        /// configuration.resourceTypes["people"] = "/people"
        /// ```
        public var resourceTypes: [String: String] = [:]

        /// A configuration with the defaults.
        ///
        /// ```swift
        /// let configuration = CachingSync.Configuration()
        /// ```
        public init() {}

        /// Sets the policies of a model class's collection and adds the foreign keys of its
        /// `BelongsTo` relations (``ForeignKey/foreignKeys(of:in:)``); for a JSON:API class,
        /// its resource type's collection (``resourceTypes``) unless the type has one.
        ///
        /// ```swift
        /// configuration.register(Comment.self, readPolicy: .localThenRemote)
        /// ```
        ///
        /// - Parameters:
        ///   - type: The model class.
        ///   - collection: Its collection path; the class's `urlRoot` by default.
        ///   - readPolicy: Its read policy, or `nil` for the default.
        ///   - versionCheck: Its conflict detection, or `nil` for the default.
        ///   - conflictPolicy: Its conflict policy, or `nil` for the default.
        public mutating func register(
            _ type: Model.Type,
            collection: String? = nil,
            readPolicy: ReadPolicy? = nil,
            versionCheck: VersionCheck? = nil,
            conflictPolicy: ConflictPolicy? = nil
        ) {
            guard let collection = (collection ?? type.urlRoot).map(CachePath.normalized) else { return }
            if let readPolicy { readPolicies[collection] = readPolicy }
            if let versionCheck { versionChecks[collection] = versionCheck }
            if let conflictPolicy { conflictPolicies[collection] = conflictPolicy }
            for key in ForeignKey.foreignKeys(of: type, in: collection) where !foreignKeys.contains(key) {
                foreignKeys.append(key)
            }
            if let format = type.wireFormat.jsonAPIFormat {
                let name = format.resourceType(of: type)
                resourceTypes[name] = resourceTypes[name] ?? collection
            }
        }

        /// Stores the records of a list URL in another collection and answers the list offline
        /// with the records whose attributes equal the URL's parameters.
        ///
        /// A read of `/users/7/todos` stores the todos in `/todos`; offline it answers the
        /// stored todos whose `userId` is `7` (a number or the text `"7"`), and a complete
        /// answer from the server deletes only those it no longer returns. See ``ScopedList``.
        /// For a JSON:API list, whose records are resource objects, an attribute is looked up
        /// in the resource's `attributes`, then as the id of a to-one relationship's linkage
        /// (`["article": "id"]` matches `relationships.article.data.id`), by its wire name.
        ///
        /// ```swift
        /// configuration.registerList("/users/:id/todos", in: "/todos", matching: ["userId": "id"])
        /// ```
        ///
        /// - Parameters:
        ///   - route: The list's URL pattern.
        ///   - collection: The collection path its records are stored in.
        ///   - attributes: Each attribute a record must have, and the route parameter it must equal.
        public mutating func registerList(_ route: Route, in collection: String, matching attributes: [String: String])
        {
            registerList(route, in: collection) { record, parameters in
                attributes.allSatisfy { attribute, parameter in
                    // A JSON:API resource object keeps the attribute, or a to-one linkage, inside.
                    let member =
                        record[attribute]
                        ?? (JSONAPIResource.isResource(record) ? JSONAPIResource.value(of: attribute, in: record) : nil)
                    guard let value = member, !value.isNull, let expected = parameters[parameter] else {
                        return false
                    }
                    return CachePath.key(value) == expected
                }
            }
        }

        /// Stores the records of a list URL in another collection and answers the list offline
        /// with the records `scope` includes.
        ///
        /// ```swift
        /// configuration.registerList("/projects/:slug/open-todos", in: "/todos") { record, parameters in
        ///     record["project"] == .string(parameters["slug"] ?? "") && record["done"] == false
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - route: The list's URL pattern.
        ///   - collection: The collection path its records are stored in.
        ///   - scope: Whether a record belongs to the list, given the route's parameters.
        public mutating func registerList(
            _ route: Route,
            in collection: String,
            scope: @escaping @Sendable (_ record: Attributes, _ parameters: [String: String]) -> Bool
        ) {
            scopedLists.append(ScopedList(route: route, collection: collection, includes: scope))
        }

        /// The setting for a path: its own, its parent collection's, or `fallback`.
        func setting<T>(_ table: [String: T], for path: String, fallback: T) -> T {
            let resource = CachePath.normalized(path)
            if let own = table[resource] { return own }
            if let parentEnd = resource.lastIndex(of: "/"), parentEnd != resource.startIndex,
                let parent = table[String(resource[..<parentEnd])]
            {
                return parent
            }
            return fallback
        }

        func readPolicy(for path: String) -> ReadPolicy {
            setting(readPolicies, for: path, fallback: defaultReadPolicy)
        }

        func versionCheck(for path: String) -> VersionCheck {
            setting(versionChecks, for: path, fallback: defaultVersionCheck)
        }

        func conflictPolicy(for path: String) -> ConflictPolicy {
            setting(conflictPolicies, for: path, fallback: defaultConflictPolicy)
        }
    }
}
