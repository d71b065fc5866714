import Dispatch
import Keel
import Testing

/// What ran on the main actor, in order.
@MainActor
private final class RunLog {
    var entries: [String] = []
}

/// On the main actor a server call first lets the jobs already enqueued on the main queue
/// run (a task started just before it, a block enqueued on the main queue), whether the
/// main run loop resumes the caller in the turn that runs it or a main-queue block resumes
/// it a turn later.
@MainActor
struct MainActorYieldTests {
    @Test func jobsEnqueuedBeforeACreateRunBeforeItsFirstEvent() async throws {
        let log = RunLog()
        let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
        notes.on("add") { _ in log.entries.append("add") }
        Task { @MainActor in log.entries.append("task") }
        DispatchQueue.main.async { MainActor.assumeIsolated { log.entries.append("block") } }

        try await notes.create(["title": "Dune"])

        #expect(log.entries == ["task", "block", "add"])
    }

    @Test func jobsEnqueuedBeforeEachOfManySavesRunBeforeItsRequest() async throws {
        let log = RunLog()
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = InMemorySync()
        note.on("request") { _ in log.entries.append("request") }
        for index in 0..<3 {
            Task { @MainActor in log.entries.append("task \(index)") }
            try await note.save(["rank": .int(index)])
        }
        #expect(log.entries == ["task 0", "request", "task 1", "request", "task 2", "request"])
    }
}
