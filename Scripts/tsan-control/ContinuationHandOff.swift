// The control program for Scripts/tsan-suppressions.txt: the hand-off that
// `SQLiteSync.withConnection` makes, with no Keel code. A task suspends in
// `withUnsafeContinuation`, a block on a serial dispatch queue resumes it, and the task
// awaits the next hand-off at once.
//
// Under the thread sanitizer this reports a data race between `resume(returning:)` (on the
// queue) and the next `withUnsafeContinuation` of the same task (swiftlang/swift#57803).
// It is not a race: when the queue resumes the continuation before the task reaches its
// `await`, the runtime's `swift_continuation_await` sees the resumed state with an
// acquiring load and carries on, but, unlike a resumption after suspending, tells the
// sanitizer nothing, so the sanitizer misses the ordering the runtime has.
//
// With `--real-race`, the queue also increments a counter after resuming, which the task
// reads without synchronization: a real race, which the suppressions must not hide.
//
// Scripts/check-races.sh compiles it with `-sanitize=thread` and checks both.
import Dispatch

/// A counter that is deliberately not synchronized.
final class UnguardedCounter: @unchecked Sendable {
    var value = 0
}

/// Runs work on a serial queue while the calling task suspends, as the store does.
final class SerialStore: Sendable {
    private let queue = DispatchQueue(label: "tsan-control")
    private let counter: UnguardedCounter?

    init(counter: UnguardedCounter?) {
        self.counter = counter
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<T, Never>) in
                queue.async {
                    continuation.resume(returning: body())
                    self.counter?.value += 1
                }
            }
        } onCancel: {
        }
    }
}

@main
struct ContinuationHandOff {
    static func main() async {
        let counter = CommandLine.arguments.contains("--real-race") ? UnguardedCounter() : nil
        let store = SerialStore(counter: counter)
        let total = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var sum = 0
                    for step in 0..<2_000 {
                        sum &+= await store.run { task &* step }
                        sum &+= counter?.value ?? 0
                    }
                    return sum
                }
            }
            var total = 0
            for await sum in group { total &+= sum }
            return total
        }
        if counter == nil {
            precondition(total == 28 * 1_999_000, "the hand-off lost or repeated work: \(total)")
        }
    }
}
