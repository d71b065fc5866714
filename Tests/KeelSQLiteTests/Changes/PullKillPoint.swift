/// Where ``PullKillTests`` kills a pulling child, by the lines it has reported.
enum PullKillPoint: Equatable, CustomStringConvertible {
    /// As it starts (`READY`), before it reads the server's answer.
    case start
    /// As it reports the batch it is about to store (`APPLYING <count>`).
    case batch
    /// As it reports writing the change at this fraction of the batch (`WRITTEN <n>`, n at
    /// least 1), inside the transaction.
    case written(Double)
    /// Never: the child finishes.
    case none

    func isReached(by lines: [[String]]) -> Bool {
        guard let last = lines.last else { return false }
        switch self {
        case .start: return last.first == "READY"
        case .batch: return last.first == "APPLYING"
        case .written(let fraction):
            guard last.first == "WRITTEN", let count = lines.last(where: { $0.first == "APPLYING" }).flatMap({ Int($0[1]) }) else {
                return false
            }
            return Int(last[1]) == max(1, Int(Double(count) * fraction))
        case .none: return false
        }
    }

    var description: String {
        switch self {
        case .start: "as it started"
        case .batch: "as it reported its batch"
        case .written(let fraction): "inside the transaction at \(Int(fraction * 100))% of the batch"
        case .none: "never"
        }
    }
}
