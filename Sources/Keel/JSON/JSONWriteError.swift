/// An error thrown when a value cannot be written as JSON text.
///
/// Writing refuses what parsing would refuse, so that every text Keel writes reads back:
/// arrays and objects nested deeper than ``JSONValue/maximumParsingDepth`` levels throw
/// ``Kind/tooDeeplyNested`` instead of producing text that the parser would reject.
///
/// ```swift
/// var value: JSONValue = 1
/// for _ in 0..<1_000 { value = [value] }
/// do {
///     _ = try value.jsonData()
/// } catch {
///     print(error)  // Arrays and objects nested deeper than 512 levels cannot be written as JSON
/// }
/// ```
public struct JSONWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// ```swift
    /// if error.kind == .tooDeeplyNested { print("flatten the value") }
    /// ```
    public enum Kind: Sendable, Hashable {
        /// Arrays and objects nested deeper than ``JSONValue/maximumParsingDepth`` levels.
        case tooDeeplyNested
    }

    /// What went wrong.
    ///
    /// ```swift
    /// do { _ = try value.jsonString() } catch { print(error.kind) }  // tooDeeplyNested
    /// ```
    public let kind: Kind

    /// Creates an error of the given kind.
    ///
    /// ```swift
    /// let error = JSONWriteError(kind: .tooDeeplyNested)
    /// ```
    ///
    /// - Parameter kind: What went wrong.
    public init(kind: Kind) {
        self.kind = kind
    }

    /// A sentence naming the problem.
    ///
    /// ```swift
    /// print(JSONWriteError(kind: .tooDeeplyNested))
    /// // Arrays and objects nested deeper than 512 levels cannot be written as JSON
    /// ```
    public var description: String {
        switch kind {
        case .tooDeeplyNested:
            return
                "Arrays and objects nested deeper than \(JSONValue.maximumParsingDepth) levels cannot be written as JSON"
        }
    }
}
