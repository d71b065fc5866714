import Foundation
import Keel

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

/// How many records `store_read_by_id` reads one at a time, from a store of
/// ``storeRecords`` notes: every fifth id.
let storeSingleReads = 2_000

/// The check value of `store_read_by_id`: the sum of the ids and `rank`s that were read.
func singleReadsChecksum(ids: Int, ranks: Int) -> Int { ids + ranks }

/// The attributes of note `i` without its id, as a form creates it: what `store_create`
/// saves, and the store assigns the id.
func newNoteAttributes(_ i: Int) -> Attributes {
    var attributes = noteAttributes(i)
    attributes["id"] = nil
    return attributes
}

/// A `Note` that a ``Store`` loads from `/notes`, as a detail screen does.
final class StoredNote: Model {
    override class var urlRoot: String? { "/notes" }
    override class var defaults: Attributes { ["title": "", "done": false, "archived": false] }
}

/// The check value of `store_fetch_all_*`: the order checksum of the ids plus the UTF-8
/// length of every title, so both sides must have read each record's fields.
func storeFetchChecksum(_ records: [(id: Int, titleLength: Int)]) -> Int {
    (orderChecksum(records.map(\.id)) + records.reduce(0) { $0 + $1.titleLength }) % (1 << 32)
}

/// The title `store_save` gives note `i`.
func savedNoteTitle(_ i: Int) -> String { "note \(i) saved" }
