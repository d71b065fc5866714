import Observation

extension Model {
    /// Validates `attributes` for a `set`: clears ``validationError`` when they pass, and
    /// reports the failure (`invalid`, and `error` or the handler) when they do not.
    @inline(__always)
    func passesValidation(_ attributes: Attributes, options: ChangeOptions) -> Bool {
        if let error = validationFailure(for: attributes, options: options) {
            reportInvalid(error, options: options)
            return false
        }
        // A model without extras has never had an error to clear (every valid `set` clears
        // it): the call, which copies and compares errors, is skipped.
        if storedExtras != nil { setValidationError(nil) }
        return true
    }

    /// Runs `validate` and turns an empty result into success.
    func validationFailure(for attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        guard let error = validate(attributes, options: options), !error.isEmpty else { return nil }
        return error
    }

    /// Records a validation failure and reports it unless silent: to the options' handler
    /// if there is one, else as `invalid` followed by `error`.
    ///
    /// - Parameter emitsError: `false` when the caller emits the `error` itself (a server's
    ///   validation errors arrive with the failed request's `error`).
    func reportInvalid(_ error: ValidationError, options: ChangeOptions, emitsError: Bool = true) {
        setValidationError(error)
        guard !options.silent else { return }
        if let handler = options.onValidationError {
            handler(self, error, options)
        } else if hasHandlers {
            dispatch(Event(name: "invalid", model: self, error: error, options: options))
            if emitsError { dispatch(Event(name: "error", model: self, error: error, options: options)) }
        }
    }

    func setValidationError(_ error: ValidationError?) {
        guard storedValidationError != error else { return }
        if let registrar {
            registrar.withMutation(of: self, keyPath: Self.validationErrorKeyPath) { storedValidationError = error }
        } else {
            storedValidationError = error
        }
    }
}
