import CKeelSQLite

/// SQLite's library: the SDK's on Apple platforms, linked; elsewhere the system's
/// `libsqlite3.so.0`, loaded when the first store opens (see `CKeelSQLite.h`), so that
/// building KeelSQLite needs no SQLite development files.
enum SQLiteLibrary {
    /// Loads the library once per process; later calls return at once.
    ///
    /// - Throws: ``SQLiteStoreError/libraryUnavailable(message:)`` when the library is
    ///   missing, lacks a function Keel calls, or is older than SQLite 3.22.0.
    static func load() throws(SQLiteStoreError) {
        guard keel_sqlite3_load() != 0 else { return }
        throw .libraryUnavailable(message: String(cString: keel_sqlite3_load_error()))
    }

    #if !canImport(Darwin)
        /// Why the library `name` cannot serve as SQLite, or `nil` when it can; nothing is
        /// published, so the process keeps the library it loaded. For tests.
        static func problem(loading name: String) -> SQLiteStoreError? {
            var functions = keel_sqlite3_functions()
            var reason = [CChar](repeating: 0, count: 512)
            guard keel_sqlite3_load_library(name, &functions, &reason, reason.count) != 0 else { return nil }
            let bytes = reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return .libraryUnavailable(message: String(decoding: bytes, as: UTF8.self))
        }
    #endif
}
