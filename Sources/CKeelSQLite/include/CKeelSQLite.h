// The part of SQLite's C interface that KeelSQLite uses, without SQLite's development
// files.
//
// On Apple platforms this is the SDK's <sqlite3.h>, and Package.swift links the SDK's
// libsqlite3. Elsewhere (Linux) the declarations below stand in for <sqlite3.h> (SQLite is
// in the public domain; the types, constants and signatures are SQLite's own), and the
// functions are found at run time in the system's libsqlite3.so.0 with dlopen/dlsym:
// building needs no SQLite header and no libsqlite3.so link symlink (package
// libsqlite3-dev), only running needs the library (package libsqlite3-0), which every
// machine with the Swift toolchain has, since SwiftPM itself links it.
//
// The functions are `static inline` wrappers around a table of function pointers, so this
// module exports no symbol named sqlite3_*: an app that links its own SQLite sees no clash.
// The only exported names start with keel_sqlite3_.
#ifndef CKEELSQLITE_H
#define CKEELSQLITE_H

#if defined(__APPLE__)

#include <sqlite3.h>

/// The SDK's SQLite is linked, so there is nothing to load.
static inline int keel_sqlite3_load(void) { return 0; }
static inline const char *keel_sqlite3_load_error(void) { return ""; }

#else

#include <stddef.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef long long int sqlite3_int64;
typedef void (*sqlite3_destructor_type)(void *);
typedef int (*sqlite3_callback)(void *, int, char **, char **);

// Result codes.
#define SQLITE_OK 0
#define SQLITE_ERROR 1
#define SQLITE_INTERNAL 2
#define SQLITE_PERM 3
#define SQLITE_ABORT 4
#define SQLITE_BUSY 5
#define SQLITE_LOCKED 6
#define SQLITE_NOMEM 7
#define SQLITE_READONLY 8
#define SQLITE_INTERRUPT 9
#define SQLITE_IOERR 10
#define SQLITE_CORRUPT 11
#define SQLITE_NOTFOUND 12
#define SQLITE_FULL 13
#define SQLITE_CANTOPEN 14
#define SQLITE_PROTOCOL 15
#define SQLITE_EMPTY 16
#define SQLITE_SCHEMA 17
#define SQLITE_TOOBIG 18
#define SQLITE_CONSTRAINT 19
#define SQLITE_MISMATCH 20
#define SQLITE_MISUSE 21
#define SQLITE_NOLFS 22
#define SQLITE_AUTH 23
#define SQLITE_FORMAT 24
#define SQLITE_RANGE 25
#define SQLITE_NOTADB 26
#define SQLITE_NOTICE 27
#define SQLITE_WARNING 28
#define SQLITE_ROW 100
#define SQLITE_DONE 101

// Flags for sqlite3_open_v2.
#define SQLITE_OPEN_READONLY 0x00000001
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_URI 0x00000040
#define SQLITE_OPEN_MEMORY 0x00000080
#define SQLITE_OPEN_NOMUTEX 0x00008000
#define SQLITE_OPEN_FULLMUTEX 0x00010000
#define SQLITE_OPEN_SHAREDCACHE 0x00020000
#define SQLITE_OPEN_PRIVATECACHE 0x00040000
#define SQLITE_OPEN_NOFOLLOW 0x01000000
#define SQLITE_OPEN_EXRESCODE 0x02000000

// Flags for sqlite3_prepare_v3.
#define SQLITE_PREPARE_PERSISTENT 0x01

// Operations of sqlite3_file_control.
#define SQLITE_FCNTL_DATA_VERSION 35

// Column types.
#define SQLITE_INTEGER 1
#define SQLITE_FLOAT 2
#define SQLITE_TEXT 3
#define SQLITE_BLOB 4
#define SQLITE_NULL 5

/// Every function of the table that takes a connection or a statement, which exists only
/// after a successful sqlite3_open_v2, so the library is loaded by then:
/// F(return type, name without `sqlite3_`, parameters, arguments).
#define KEEL_SQLITE3_HANDLE_FUNCTIONS(F) \
    F(int, close_v2, (sqlite3 * db), (db)) \
    F(const char *, errmsg, (sqlite3 * db), (db)) \
    F(int, errcode, (sqlite3 * db), (db)) \
    F(int, extended_errcode, (sqlite3 * db), (db)) \
    F(int, extended_result_codes, (sqlite3 * db, int onoff), (db, onoff)) \
    F(int, db_readonly, (sqlite3 * db, const char *name), (db, name)) \
    F(int, get_autocommit, (sqlite3 * db), (db)) \
    F(int, busy_timeout, (sqlite3 * db, int ms), (db, ms)) \
    F(int, file_control, (sqlite3 * db, const char *name, int op, void *argument), (db, name, op, argument)) \
    F(int, changes, (sqlite3 * db), (db)) \
    F(sqlite3_int64, last_insert_rowid, (sqlite3 * db), (db)) \
    F(int, exec, (sqlite3 * db, const char *sql, sqlite3_callback callback, void *context, char **error), \
      (db, sql, callback, context, error)) \
    F(int, prepare_v2, (sqlite3 * db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, statement, tail)) \
    F(int, prepare_v3, \
      (sqlite3 * db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, flags, statement, tail)) \
    F(int, step, (sqlite3_stmt * statement), (statement)) \
    F(int, reset, (sqlite3_stmt * statement), (statement)) \
    F(int, finalize, (sqlite3_stmt * statement), (statement)) \
    F(int, clear_bindings, (sqlite3_stmt * statement), (statement)) \
    F(int, bind_int64, (sqlite3_stmt * statement, int index, sqlite3_int64 value), (statement, index, value)) \
    F(int, bind_double, (sqlite3_stmt * statement, int index, double value), (statement, index, value)) \
    F(int, bind_null, (sqlite3_stmt * statement, int index), (statement, index)) \
    F(int, bind_text, \
      (sqlite3_stmt * statement, int index, const char *text, int bytes, sqlite3_destructor_type destructor), \
      (statement, index, text, bytes, destructor)) \
    F(int, bind_blob, \
      (sqlite3_stmt * statement, int index, const void *bytes, int count, sqlite3_destructor_type destructor), \
      (statement, index, bytes, count, destructor)) \
    F(int, column_count, (sqlite3_stmt * statement), (statement)) \
    F(const char *, column_name, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(int, column_type, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(sqlite3_int64, column_int64, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(double, column_double, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(const unsigned char *, column_text, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(const void *, column_blob, (sqlite3_stmt * statement, int column), (statement, column)) \
    F(int, column_bytes, (sqlite3_stmt * statement, int column), (statement, column))

/// The functions that need no connection; their wrappers load the library first.
#define KEEL_SQLITE3_GLOBAL_FUNCTIONS(F) \
    F(int, open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs)) \
    F(const char *, errstr, (int code), (code)) \
    F(void, free, (void *pointer), (pointer)) \
    F(const char *, libversion, (void), ()) \
    F(int, libversion_number, (void), ())

#define KEEL_SQLITE3_FIELD(result, name, parameters, arguments) result(*name) parameters;

/// Pointers to the library's functions, filled in by keel_sqlite3_load.
struct keel_sqlite3_functions {
    KEEL_SQLITE3_HANDLE_FUNCTIONS(KEEL_SQLITE3_FIELD)
    KEEL_SQLITE3_GLOBAL_FUNCTIONS(KEEL_SQLITE3_FIELD)
};

/// The loaded functions; all NULL until keel_sqlite3_load has returned 0.
extern struct keel_sqlite3_functions keel_sqlite3_functions;

/// The oldest SQLite that Keel runs with (3.22.0 reads write-ahead logs without write access).
#define KEEL_SQLITE3_MINIMUM_VERSION 3022000

/// Loads libsqlite3.so.0 (or libsqlite3.so) once per process; 0 on success. Thread-safe.
int keel_sqlite3_load(void);

/// Why keel_sqlite3_load failed (the loader's message), or "" when it succeeded.
const char *keel_sqlite3_load_error(void);

/// Tries to load SQLite's functions from the library `name` into `functions` without
/// publishing them; 0 on success, else the reason is written to `error`. For tests.
int keel_sqlite3_load_library(const char *name, struct keel_sqlite3_functions *functions, char *error, size_t size);

#define KEEL_SQLITE3_WRAPPER(result, name, parameters, arguments) \
    static inline result sqlite3_##name parameters { return keel_sqlite3_functions.name arguments; }

KEEL_SQLITE3_HANDLE_FUNCTIONS(KEEL_SQLITE3_WRAPPER)

static inline int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    if (keel_sqlite3_load() != 0) {
        *db = NULL;
        return SQLITE_CANTOPEN;
    }
    return keel_sqlite3_functions.open_v2(filename, db, flags, vfs);
}

static inline const char *sqlite3_errstr(int code) {
    if (keel_sqlite3_load() != 0) return keel_sqlite3_load_error();
    return keel_sqlite3_functions.errstr(code);
}

static inline void sqlite3_free(void *pointer) {
    if (pointer != NULL && keel_sqlite3_load() == 0) keel_sqlite3_functions.free(pointer);
}

static inline const char *sqlite3_libversion(void) {
    if (keel_sqlite3_load() != 0) return "";
    return keel_sqlite3_functions.libversion();
}

static inline int sqlite3_libversion_number(void) {
    if (keel_sqlite3_load() != 0) return 0;
    return keel_sqlite3_functions.libversion_number();
}

#endif
#endif
