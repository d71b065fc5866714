import Foundation
import Keel
import KeelSQLite
import Testing

/// One store shared by many tasks and actors.
struct ConcurrencyTests {
    @Test func manyTasksCreateConcurrentlyAndGetUniqueSequentialIDs() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }

            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let response = try await store.send(.create, "/notes", body: ["index": .int(index)])
                        return try #require(response.body?["id"]?.intValue)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }

            #expect(ids.sorted() == Array(1...200))
            let records = try store.records(at: "/notes")
            #expect(records.count == 200)
            #expect(Set(records.compactMap { $0["index"]?.intValue }) == Set(0..<200))
            // Insertion order is commit order, and ids are assigned in the same transaction.
            #expect(records.compactMap { $0["id"]?.intValue } == Array(1...200))
        }
    }

    @Test func writerAndReaderActorsSeeConsistentSnapshots() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            let writer = Writer(store: store)
            let reader = Reader(store: store)

            async let written = writer.create(count: 100, in: "/events")
            async let snapshots = reader.read("/events", times: 50)
            let (ids, lists) = try await (written, snapshots)

            #expect(ids == Array(1...100))
            for list in lists {
                // Every read sees a prefix of the writes: whole records, no gaps.
                #expect(list == (0..<list.count).map { $0 + 1 })
            }
            #expect(try await store.send(.read, "/events").body?.arrayValue?.count == 100)
        }
    }

    @Test func concurrentPatchesOfOneRecordAreAllKept() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/settings", body: ["name": "prefs"])

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await store.send(.patch, "/settings/1", body: ["key\(index)": .int(index)])
                }
            }
            try await group.waitForAll()
        }

        let record = try #require(try await store.send(.read, "/settings/1").body?.objectValue)
        #expect(record.count == 52)  // name, id and 50 keys: no patch overwrote another
        for index in 0..<50 {
            #expect(record["key\(index)"] == .int(index))
        }
    }

    @Test func twoStoresOnOneFileWriteConcurrentlyWithoutConflicts() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "shared.sqlite")
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            defer {
                first.close()
                second.close()
            }

            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let response = try await store.send(.create, "/notes", body: ["index": .int(index)])
                        return response.body?["id"]?.intValue ?? -1
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }

            #expect(ids.sorted() == Array(1...100))
            #expect(try first.records(at: "/notes").count == 100)
            #expect(try second.records(at: "/notes").count == 100)
        }
    }

    @Test func twoActorsWorkOnDifferentCollectionsOfOneStore() async throws {
        let store = try SQLiteSync.inMemory()
        let notes = Writer(store: store)
        let tags = Writer(store: store)

        async let noteIDs = notes.create(count: 60, in: "/notes")
        async let tagIDs = tags.create(count: 40, in: "/tags")
        let (first, second) = try await (noteIDs, tagIDs)

        #expect(first == Array(1...60))
        #expect(second == Array(1...40))
    }
}

/// Creates records one after another from its own isolation domain.
private actor Writer {
    let store: SQLiteSync

    init(store: SQLiteSync) { self.store = store }

    func create(count: Int, in collection: String) async throws -> [Int] {
        var ids: [Int] = []
        for index in 0..<count {
            let response = try await store.send(.create, collection, body: ["index": .int(index)])
            ids.append(response.body?["id"]?.intValue ?? -1)
        }
        return ids
    }
}

/// Lists a collection repeatedly from its own isolation domain.
private actor Reader {
    let store: SQLiteSync

    init(store: SQLiteSync) { self.store = store }

    func read(_ collection: String, times: Int) async throws -> [[Int]] {
        var lists: [[Int]] = []
        for _ in 0..<times {
            let list = try await store.send(.read, collection).body?.arrayValue ?? []
            lists.append(list.compactMap { $0["id"]?.intValue })
        }
        return lists
    }
}
