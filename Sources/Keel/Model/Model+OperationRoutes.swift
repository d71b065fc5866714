// MARK: - The URL of one operation: per-operation URLs and routes

extension Model {
    /// The URL set for one operation on this model (``fetchURL`` and its siblings).
    func perOperationURL(for method: SyncMethod) -> String? {
        switch method {
        case .read: fetchURL
        case .create: createURL
        case .update, .patch: updateURL
        case .delete: destroyURL
        }
    }

    /// The route that builds the URL of one operation: the call's named route, else the
    /// class's route for the method; `nil` when a URL is given or ``url()`` builds it.
    ///
    /// - Throws: ``SyncError/missingURL(_:)`` when the call names a route the class lacks.
    func routeInUse(for method: SyncMethod, options: SyncOptions) throws(SyncError) -> Route? {
        guard options.url == nil, perOperationURL(for: method) == nil else { return nil }
        if let name = options.route { return try namedRoute(name) }
        return Self.routes.route(for: method)
    }

    /// A route's path with its parameters filled in.
    ///
    /// Each parameter comes from `extra`, then the model's attributes (by app name, then by the
    /// wire name's app name), then, for `<owner>_id`, `<owner>Id` or `parent_id`, the id of the
    /// owner of the related collection or has-one the model is in. The later keys of a key path
    /// parameter are read from nested objects by wire name, then by app name.
    func routePath(_ route: Route, extra: [String: JSONValue] = [:]) throws(SyncError) -> String {
        let keys = (collectionContext?.wireFormat ?? Self.wireFormat).keys
        return try route.path(
            value: { name in
                if let value = extra[name] { return value }
                if let value = storage[name] ?? storage[keys.appName(for: name)] { return value }
                guard let owner = relatedOwner else { return nil }
                let ownerName = type(of: owner).resourceName
                let names = ["\(ownerName)_id", keys.appName(for: "\(ownerName)_id"), "parent_id", "parentId"]
                return names.contains(name) ? owner.id : nil
            },
            member: { object, key in object[key] ?? object[keys.convention.appName(for: key)] }
        )
    }

    /// The class's route of that name.
    ///
    /// - Throws: ``SyncError/missingURL(_:)`` when the class has none.
    func namedRoute(_ name: String) throws(SyncError) -> Route {
        guard let route = Self.routes.named[name] else {
            throw .missingURL("\(type(of: self)) has no route named \(name)")
        }
        return route
    }

    /// The model whose related collection or has-one this model is in.
    var relatedOwner: Model? {
        (collection as? any RelatedCollection)?.relationOwner ?? storedExtras?.hasOneOwner
    }
}

/// A collection that may be the has-many of an owner.
protocol RelatedCollection: AnyObject {
    var relationOwner: Model? { get }
}
