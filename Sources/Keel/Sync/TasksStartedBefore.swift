import Dispatch

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

/// Lets tasks started just before a server call run up to their first suspension before
/// the call emits anything.
///
/// The natural way to watch a call, `Task { for await e in notes.events("add") { … } }`
/// followed by `try await notes.create(…)`, creates the stream only when the task starts;
/// on the same actor, that is after the caller's next suspension. Every server call
/// suspends here first, so such a stream is listening before the call's first event.
///
/// A caller isolated to an actor waits behind the jobs already enqueued on that actor's
/// executor without leaving it: a task isolated to the same actor, enqueued after them,
/// resumes the caller. `Task.yield()` would hop to the global executor and back (it is
/// not isolated to the caller), which wakes two threads a call when the caller is the main
/// actor. A caller on the global executor yields there, as before. The main actor's caller
/// is resumed by ``resumeBehindMainQueue(_:)``.
func yieldToTasksStartedBefore(isolation: isolated (any Actor)? = #isolation) async {
    // Not `guard let isolation`: the task must capture the isolated parameter itself to
    // run on its actor (a local copy of it isolates nothing), or it runs on the global
    // executor and wakes a thread there.
    guard isolation != nil else {
        await Task.yield()
        return
    }
    if isolation === MainActor.shared {
        await withUnsafeContinuation(isolation: isolation) { continuation in
            resumeBehindMainQueue(continuation)
        }
        return
    }
    await withUnsafeContinuation(isolation: isolation) { continuation in
        Task {
            _ = isolation
            continuation.resume()
        }
    }
}

/// Resumes a caller suspended on the main actor behind every job enqueued on the main queue
/// so far, the main actor's jobs being the main dispatch queue's.
///
/// The main queue runs its jobs in turns of the main run loop, in a common mode, and each
/// turn runs only the jobs enqueued before it began: a job enqueued while it runs waits for
/// the next turn. When the main run loop is in a mode, the job running now is part of such
/// a turn, and a block the run loop performs in that mode runs right after it, in the same
/// turn (Core Foundation runs a turn's blocks after its sources): resuming the caller there
/// enqueues it behind every job enqueued so far, for the next turn. That is one turn a
/// yield, where a block on the main queue would run in the next turn and resume the caller
/// for the one after.
///
/// Without a running main run loop (the main queue drained by `dispatchMain()`), a block on
/// the main queue resumes the caller.
private func resumeBehindMainQueue(_ continuation: UnsafeContinuation<Void, Never>) {
    #if canImport(CoreFoundation)
        let mainLoop = CFRunLoopGetMain()
        if let mode = CFRunLoopCopyCurrentMode(mainLoop) {
            CFRunLoopPerformBlock(mainLoop, mode) { continuation.resume() }
            return
        }
    #endif
    DispatchQueue.main.async { continuation.resume() }
}
