extension Model {
    // MARK: - Reading server data

    /// The attributes a server body carries for this model: the wire format's record (root key
    /// removed, wire names mapped to app names, received roles only, Drupal items unwrapped, a
    /// JSON:API resource and its `included` records read), then ``parse(_:options:)`` unless
    /// the options say `parse: false`.
    ///
    /// Every way server data reaches a model goes through here: `fetch` and `save` answers,
    /// and, with `parse: true`, the initializer, `set`, a collection's inputs and an identity
    /// map, so one body gives the same attributes whichever way it arrives. Input that a
    /// collection or identity map has mapped already (``ChangeOptions/wireFormatApplied``)
    /// goes to `parse` as it is.
    ///
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` when the body does not fit
    ///   the format.
    func serverAttributes(
        from body: JSONValue,
        format: WireFormat,
        options: ChangeOptions
    ) throws(SyncError) -> Attributes? {
        let record = options.wireFormatApplied ? body : try format.record(from: body, for: Self.self)
        return options.parse != false ? parse(record, options: options) : record.objectValue
    }

    /// ``serverAttributes(from:format:options:)`` for attributes given with `parse: true` to
    /// the initializer or `set`, in the model's own format: its collection's, else its class's.
    ///
    /// Attributes that do not fit the format (already in app form, say, for a Drupal class) go
    /// to `parse` as they are, which is what `parse: true` did before formats were applied
    /// here; ``WireFormat/decode(_:for:)`` reports why a body does not fit. Attributes not
    /// mapped yet become the ``remoteAttributes`` of a class that keeps them, as NSRails'
    /// `setPropertiesUsingRemoteDictionary:` does.
    func parsedInput(_ attributes: Attributes, options: ChangeOptions) -> Attributes? {
        let body = JSONValue.object(attributes)
        if !options.wireFormatApplied && Self.keepsRemoteAttributes { extras.remoteAttributes = body }
        // Mapped input goes to `parse` as it is: the format, which a class may build anew on
        // every call, is asked for only when there is mapping to do.
        if options.wireFormatApplied { return options.parse != false ? parse(body, options: options) : attributes }
        let format = collectionContext?.wireFormat ?? Self.wireFormat
        do {
            return try serverAttributes(from: body, format: format, options: options)
        } catch {
            return parse(body, options: options)
        }
    }
}
