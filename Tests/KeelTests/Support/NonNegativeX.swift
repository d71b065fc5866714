import Keel

/// A model whose `x` must not be negative: the validating model of the `set` tests.
final class NonNegativeX: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        (attributes["x"]?.intValue ?? 0) < 0 ? ["x": ["must not be negative"]] : nil
    }
}
