/// A verification that did not hold: the workload did not do the work it should have.
struct VerificationFailure: Error, CustomStringConvertible {
    let description: String
}

/// Throws a ``VerificationFailure`` with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(VerificationFailure) {
    if !condition { throw VerificationFailure(description: message()) }
}

/// Returns `value`, or throws a ``VerificationFailure`` with `message` when it is `nil`.
func unwrap<Value>(_ value: Value?, _ message: @autoclosure () -> String) throws(VerificationFailure) -> Value {
    guard let value else { throw VerificationFailure(description: message()) }
    return value
}
