import Keel

/// A tiny deterministic generator of JSON values, for round-trip tests.
///
/// It uses SplitMix64, so the same seed always produces the same values on every platform.
struct JSONValueGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A value nested at most `depth` levels deep.
    mutating func value(depth: Int = 4) -> JSONValue {
        let kinds = depth > 0 ? 9 : 7
        switch next(below: kinds) {
        case 0: return .null
        case 1: return .bool(next(below: 2) == 0)
        case 2: return .int(integer())
        case 3: return .double(double())
        case 4, 5: return .string(string())
        case 6: return .int(next(below: 100))
        case 7: return .array((0..<next(below: 6)).map { _ in value(depth: depth - 1) })
        default:
            let count = next(below: 3) == 0 ? next(below: 30) : next(below: 6)
            return .object(
                JSONObject(
                    uniqueKeysWithLastValues: (0..<count).map { _ in
                        (string(maximumLength: 8), value(depth: depth - 1))
                    }
                )
            )
        }
    }

    private mutating func integer() -> Int {
        switch next(below: 4) {
        case 0: return [Int.min, Int.max, 0, -1, 1 << 53, -(1 << 53) - 1][next(below: 6)]
        case 1: return Int(truncatingIfNeeded: next())
        default: return next(below: 2_000_001) - 1_000_000
        }
    }

    private mutating func double() -> Double {
        switch next(below: 5) {
        case 0:
            // Any finite bit pattern, including subnormals.
            while true {
                let candidate = Double(bitPattern: next())
                if candidate.isFinite { return candidate }
            }
        case 1:
            return [0.1, 0.2, 0.3, -0.0, 1e-7, 1e21, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.5][
                next(below: 10)
            ]
        case 2: return Double(next(below: 1_000_000)) / 1000
        default: return Double(Int64(truncatingIfNeeded: next())) / Double(1 << next(below: 60))
        }
    }

    /// A string of ASCII, control characters, quotes, backslashes and non-ASCII scalars.
    mutating func string(maximumLength: Int = 16) -> String {
        let pool: [Unicode.Scalar] = [
            "a", "b", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\n", "\r", "\t", "\u{1F}", "\u{7F}",
            "é", "ß", "€", "\u{2028}", "😀", "𝄞", "\u{FFFD}", "\u{FEFF}", "中",
        ]
        var result = String.UnicodeScalarView()
        for _ in 0..<next(below: maximumLength + 1) {
            result.append(
                next(below: 3) == 0 ? pool[next(below: pool.count)] : Unicode.Scalar(UInt8(97 + next(below: 26)))
            )
        }
        return String(result)
    }
}
