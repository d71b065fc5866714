import Testing

@testable import KeelSQLite

/// On Linux, SQLite's library is loaded when the first store opens; a library that cannot
/// serve is a typed error that says what to install, never a crash.
struct SQLiteLibraryTests {
    @Test func theSystemLibraryLoads() throws {
        try SQLiteLibrary.load()
        #if os(Linux)
            #expect(SQLiteLibrary.problem(loading: "libsqlite3.so.0") == nil)
        #endif
    }

    #if os(Linux)
        @Test func aMissingLibraryIsReportedWithWhatToInstall() throws {
            let error = try #require(SQLiteLibrary.problem(loading: "libkeel-missing-sqlite.so.0"))
            guard case .libraryUnavailable(let message) = error else {
                Issue.record("expected .libraryUnavailable, got \(error)")
                return
            }
            #expect(message.contains("libkeel-missing-sqlite.so.0"))
            #expect(error.description.contains("install it"))
            #expect(error.description.contains("libsqlite3-0"))
        }

        @Test func aLibraryWithoutSQLitesFunctionsIsRefused() {
            #expect(
                SQLiteLibrary.problem(loading: "libm.so.6")
                    == .libraryUnavailable(message: "libm.so.6 has no function sqlite3_close_v2")
            )
        }
    #endif
}
