import Foundation

/// Runs `work` on a new thread with a stack of `stackSize` bytes and returns its result.
///
/// The deep-release tests run on such a thread. On 512 KiB, a value nested 100,000 levels
/// deep overflows any code that recurses once per level, since a frame takes at least 16
/// bytes; on a thread with the default 8 MiB stack, the same proof needs values ten times
/// deeper, which an unoptimized build takes seconds to build and compare.
///
/// ```swift
/// let freed = await onSmallStack { Nesting.arrays.build(100_000, around: 1).arrayValue != nil }
/// ```
func onSmallStack<Output: Sendable>(
    stackSize: Int = 512 * 1024,
    _ work: @escaping @Sendable () -> Output
) async -> Output {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.stackSize = stackSize
        thread.start()
    }
}
