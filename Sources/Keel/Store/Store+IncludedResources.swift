extension Store {
    /// Merges the `included` resources of known types of an answer into the identity map,
    /// so that the live queries of their classes follow.
    ///
    /// The answer's records read without error already; a resource of a known type that does
    /// not read as a record stays in the answer (``SyncResponse/jsonAPIIncluded``), as one of
    /// an unknown type does.
    func mergeIncluded(of response: SyncResponse) {
        guard let body = response.body, body["included"] != nil else { return }
        _ = try? identityMap.mergeIncluded(from: body)
    }
}
