import Foundation

/// How many notes `store_write_read` creates, lists and reads back one by one.
let storeRecords = 10_000

/// The check value of `store_write_read`: the order checksum of the listed ids, plus the
/// UTF-8 length of every listed title, plus the `rank` of every note read on its own, so
/// both sides must have parsed each record back.
func storeChecksum(listed: [(id: Int, titleLength: Int)], ranks: Int) -> Int {
    orderChecksum(listed.map(\.id)) + listed.reduce(0) { $0 + $1.titleLength } + ranks
}

/// A new, empty directory for one run's database file, removed again by ``remove()``.
struct ScratchDirectory: Sendable {
    /// The directory.
    let url: URL

    /// Creates a directory under the temporary directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keel-bench-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The database file of a run, which the run creates.
    var databaseFile: URL { url.appendingPathComponent("notes.sqlite") }

    /// The path of ``databaseFile``.
    var databasePath: String { databaseFile.path }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
