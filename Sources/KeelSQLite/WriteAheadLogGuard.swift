import Foundation

/// Reads a store's write-ahead log before SQLite opens the store, and refuses damage that
/// SQLite's recovery would make permanent (see ``WriteAheadLogDamage`` for the rule).
///
/// SQLite replays the log when the store is first opened and drops the frames after the
/// first invalid one; its next checkpoint, at the latest when the store closes, writes that
/// result into the database and deletes the log. So the check must come before SQLite
/// touches the files at all: even a read-only connection rewrites the `-shm` index.
enum WriteAheadLogGuard {
    /// Checks the log of the database at `path`, if it has one.
    ///
    /// - Throws: ``SQLiteStoreError/damagedLog(path:copy:message:)`` when the log is damaged,
    ///   after copying the database and the log into a new directory next to the database;
    ///   ``SQLiteStoreError/cannotOpen(path:message:)`` when the copy cannot be made. The
    ///   files themselves are only read.
    /// - Complexity: O(*n*) in the size of the log.
    static func check(databasePath path: String) throws(SQLiteStoreError) {
        // Another process may be appending to the log while it is read; its frames would
        // look damaged only until written, so damage must show in a second reading too.
        guard let first = inspect(path), let second = inspect(path), first.damage == second.damage else { return }
        let copy: String
        do {
            copy = try keepCopy(of: path, log: second.log)
        } catch {
            throw .cannotOpen(
                path: path,
                message: "its write-ahead log is damaged (\(second.damage)), and no copy could be kept "
                    + "(\(error.localizedDescription)); the files were left untouched"
            )
        }
        throw .damagedLog(path: path, copy: copy, message: second.damage.description)
    }

    private static func inspect(_ path: String) -> (damage: WriteAheadLogDamage, log: [UInt8])? {
        guard let data = FileManager.default.contents(atPath: path + "-wal"), data.count > WriteAheadLog.headerSize
        else { return nil }
        let log = WriteAheadLog(bytes: [UInt8](data))
        let database = FileHandle(forReadingAtPath: path)
        defer { try? database?.close() }
        let damage = log.damage(databasePageSize: database.flatMap(pageSize)) { number, size in
            guard let database, (try? database.seek(toOffset: UInt64(number - 1) * UInt64(size))) != nil,
                let page = try? database.read(upToCount: size), page.count == size
            else { return nil }
            return [UInt8](page)
        }
        return damage.map { ($0, log.bytes) }
    }

    /// The page size in a database file's header (bytes 16–17; 1 stands for 65536).
    private static func pageSize(_ database: FileHandle) -> Int? {
        guard let header = try? database.read(upToCount: 100), header.count == 100,
            header.starts(with: Array("SQLite format 3\0".utf8))
        else { return nil }
        let value = Int(header[16]) << 8 | Int(header[17])
        let size = value == 1 ? 65_536 : value
        return WriteAheadLog.isPageSize(size) ? size : nil
    }

    /// Copies the database and `log` into `<name>.damaged-log-<UTC time>/` next to the
    /// database, or finds an identical copy kept by an earlier attempt to open the store.
    private static func keepCopy(of path: String, log: [UInt8]) throws -> String {
        let files = FileManager.default
        let database = URL(filePath: path)
        let name = database.lastPathComponent
        let parent = database.deletingLastPathComponent()
        let prefix = "\(name).damaged-log-"
        let earlier = (try? files.contentsOfDirectory(atPath: parent.path(percentEncoded: false))) ?? []
        for candidate in earlier.sorted() where candidate.hasPrefix(prefix) {
            let directory = parent.appending(path: candidate)
            let keptLog = directory.appending(path: "\(name)-wal").path(percentEncoded: false)
            let keptDatabase = directory.appending(path: name).path(percentEncoded: false)
            if files.contents(atPath: keptLog) == Data(log), files.contentsEqual(atPath: keptDatabase, andPath: path) {
                return directory.path(percentEncoded: false)
            }
        }

        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: Date())
        var directory = parent.appending(path: prefix + stamp)
        var attempt = 1
        while files.fileExists(atPath: directory.path(percentEncoded: false)) {
            attempt += 1
            directory = parent.appending(path: "\(prefix)\(stamp)-\(attempt)")
        }
        try files.createDirectory(at: directory, withIntermediateDirectories: false)
        try files.copyItem(at: database, to: directory.appending(path: name))
        try Data(log).write(to: directory.appending(path: "\(name)-wal"), options: .withoutOverwriting)
        return directory.path(percentEncoded: false)
    }
}
