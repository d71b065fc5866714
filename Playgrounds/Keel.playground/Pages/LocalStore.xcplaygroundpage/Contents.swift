//: # The local store
//: `KeelSQLite` keeps records in a SQLite file: any collection URL works without a schema,
//: every operation is one durable transaction, and an `IdentityMap` hands out one model
//: instance per record.
import Foundation
import Keel
import KeelSQLite

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keel-playground-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let file = folder.appendingPathComponent("notes.sqlite")

let store = try SQLiteSync(fileURL: file)
let notes = Collection<Note>(url: "/notes", sync: store)
let groceries = try await notes.create(["title": "Groceries"])
try await notes.create(["title": "Taxes"])
precondition(groceries.id == 1)
//: The records survive closing and reopening the file.
store.close()
let reopened = try SQLiteSync(fileURL: file)
let stored = try reopened.records(at: "/notes")
precondition(stored.count == 2)
//: With an identity map, every fetch of a record gives the same instance, so an edit shows
//: everywhere.
let map = IdentityMap()
let inbox = Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: reopened)
let archive = Collection<Note>(
    factory: map.factory(for: Note.self, collection: "/notes"),
    url: "/notes",
    sync: reopened
)
try await inbox.fetch()
try await archive.fetch()
precondition(inbox.get(1) === archive.get(1))
inbox.get(1)?["done"] = true
precondition(archive.get(1)?["done"] == true)
//: A file that is not a Keel store is reported, never reset.
let bogus = folder.appendingPathComponent("bogus.sqlite")
try Data("not a database".utf8).write(to: bogus)
do {
    _ = try SQLiteSync(fileURL: bogus)
    preconditionFailure("opening a text file should fail")
} catch {
    let untouched = try Data(contentsOf: bogus)
    precondition(String(decoding: untouched, as: UTF8.self) == "not a database")
}
reopened.close()
