import Foundation
import Keel
import KeelSQLite
import Testing

/// Read-modify-write with `If-Match` from many tasks, on one store and on two stores of one
/// file: every increment is kept, and each loser learns it lost.
struct CompareAndSetTests {
    @Test func concurrentTasksOnOneStoreLoseNoIncrement() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "counter.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/counters", body: ["count": 0])

            let conflicts = try await incrementConcurrently([store], tasks: 20, times: 5)

            let record = try await store.send(.read, "/counters/1")
            #expect(record.body?["count"] == 100)
            #expect(record.headers["etag"] == "\"101\"")
            #expect(conflicts >= 0)
        }
    }

    @Test func twoStoresOnOneFileLoseNoIncrement() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "counter.sqlite")
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            defer {
                first.close()
                second.close()
            }
            try await first.send(.create, "/counters", body: ["count": 0])

            let conflicts = try await incrementConcurrently([first, second], tasks: 20, times: 5)

            #expect(try await second.send(.read, "/counters/1").body?["count"] == 100)
            #expect(conflicts > 0, "tasks on two connections interleave reads and writes")
        }
    }

    @Test func modelsInConcurrentTasksLoseNoIncrementWithTheETagOfTheirFetch() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "counter.sqlite"))
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["count": 0])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let counter = Note(["id": 1])
                        counter.sync = store
                        for _ in 0..<5 {
                            while try await !Self.incrementIfUnchanged(counter) {}
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.send(.read, "/notes/1").body?["count"] == 50)
        }
    }

    /// The pattern of the documentation: fetch for the ETag, save with If-Match.
    private static func incrementIfUnchanged(_ counter: Note) async throws -> Bool {
        let etag = try await counter.fetch().headers["etag"] ?? "*"
        let count = counter["count"]?.intValue ?? 0
        do {
            let ifUnchanged = SyncOptions(headers: ["If-Match": etag])
            try await counter.save(["count": .int(count + 1)], wait: true, patch: true, options: ifUnchanged)
            return true
        } catch {
            guard error.status == 412 else { throw error }
            return false
        }
    }

    @Test func withoutIfMatchTheSameRaceLosesUpdates() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/counters", body: ["count": 0])
        // Every task reads first, then all write: the lost update If-Match prevents.
        let reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask { try await store.send(.read, "/counters/1").body?["count"]?.intValue ?? -1 }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        for count in reads {
            try await store.send(.patch, "/counters/1", body: ["count": .int(count + 1)])
        }
        #expect(try await store.send(.read, "/counters/1").body?["count"] == 1)
    }

    /// Increments `/counters/1` from `tasks` tasks, `times` each, spread over the stores;
    /// returns how many writes lost a race and were retried.
    private func incrementConcurrently(_ stores: [SQLiteSync], tasks: Int, times: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<tasks {
                let store = stores[index % stores.count]
                group.addTask {
                    var conflicts = 0
                    for _ in 0..<times {
                        while true {
                            let read = try await store.send(.read, "/counters/1")
                            let count = read.body?["count"]?.intValue ?? 0
                            let etag = try #require(read.headers["etag"])
                            await Task.yield()
                            do {
                                _ = try await store.perform(
                                    SyncRequest(
                                        method: .patch,
                                        url: url("/counters/1"),
                                        body: ["count": .int(count + 1)],
                                        headers: ["If-Match": etag]
                                    )
                                )
                                break
                            } catch let error as SyncError {
                                guard case .storeRefused(let refusal) = error else { throw error }
                                #expect(refusal.status == 412)
                                guard case .versionMismatch(let current) = refusal.reason else { throw error }
                                #expect(current != nil)
                                conflicts += 1
                            }
                        }
                    }
                    return conflicts
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
