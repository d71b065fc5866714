/// The Park–Miller minimal standard generator of the specification:
/// `s = s × 48271 mod (2³¹ − 1)` in 64-bit arithmetic.
///
/// With seed 42 the first draws are 2027382, 1226992407 and 551494037.
struct ParkMiller {
    private var state: Int64

    init(seed: Int64) {
        state = seed
    }

    /// Advances the state and returns it.
    mutating func next() -> Int {
        state = state * 48_271 % 2_147_483_647
        return Int(state)
    }
}
