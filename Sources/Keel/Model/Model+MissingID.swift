extension Model {
    /// Throws ``SyncError/missingID(model:)`` when fetching this model would GET its
    /// collection's URL: it has no id, and neither the call (a URL or a route), ``fetchURL``,
    /// the class's read route nor an overridden ``url()`` names another resource (NSRails'
    /// `NSRNullRemoteIDException`). Without it, a list answer would pass silently as the record.
    func checkIdentifiedForFetch(options: SyncOptions) throws(SyncError) {
        guard isNew, options.url == nil, options.route == nil, fetchURL == nil,
            Self.routes.route(for: .read) == nil
        else { return }
        let listURL = [collectionContext?.url, urlRoot].lazy.compactMap { $0 }.first { !$0.isEmpty }
        let format = collectionContext?.wireFormat ?? Self.wireFormat
        guard let listURL, (try? url()) == format.suffixed(listURL) else { return }
        throw .missingID(model: String(describing: type(of: self)))
    }
}
