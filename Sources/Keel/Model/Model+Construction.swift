/// The rare steps of building a model (``Model/init(_:options:)``), out of line: most models are
/// built from attributes without `parse` or `validate`, and the initializer's common path stays a
/// few cache lines of code (an identity map builds thousands of models a document).
extension Model {
    /// The attributes of a model built with `parse: true`: the record read as a server record
    /// (``parsedInput(_:options:)``), then the class's ``defaults`` for the keys it lacks.
    @inline(never)
    func parsedAttributes(_ record: Attributes, options: ChangeOptions) -> Attributes {
        var attributes = parsedInput(record, options: options) ?? [:]
        let defaults = Self.defaults
        if !defaults.isEmpty {
            attributes = Attributes(merging: consume defaults, with: consume attributes)
        }
        return attributes
    }

    /// Validates the attributes a model is built with (`validate: true`) and reports a failure.
    ///
    /// - Returns: Whether they failed, leaving the model empty with ``validationError`` set.
    @inline(never)
    func reportsInvalid(_ attributes: Attributes, options: ChangeOptions) -> Bool {
        guard let error = validationFailure(for: attributes, options: options) else { return false }
        reportInvalid(error, options: options)
        return true
    }
}
