// Loads the system's SQLite library at run time (see include/CKeelSQLite.h for why).
#include "CKeelSQLite.h"

#if !defined(__APPLE__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct keel_sqlite3_functions keel_sqlite3_functions;

static pthread_once_t keel_sqlite3_once = PTHREAD_ONCE_INIT;
static int keel_sqlite3_status = -1;
static char keel_sqlite3_error[1024];

#define KEEL_SQLITE3_RESOLVE(result, name, parameters, arguments) \
    found.name = (__typeof__(found.name))dlsym(library, "sqlite3_" #name); \
    if (found.name == NULL) { \
        snprintf(error, size, "%s has no function sqlite3_" #name, path); \
        dlclose(library); \
        return 1; \
    }

int keel_sqlite3_load_library(const char *path, struct keel_sqlite3_functions *functions, char *error, size_t size) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, size, "%s", reason != NULL ? reason : path);
        return 1;
    }
    struct keel_sqlite3_functions found;
    KEEL_SQLITE3_HANDLE_FUNCTIONS(KEEL_SQLITE3_RESOLVE)
    KEEL_SQLITE3_GLOBAL_FUNCTIONS(KEEL_SQLITE3_RESOLVE)
    if (found.libversion_number() < KEEL_SQLITE3_MINIMUM_VERSION) {
        snprintf(error, size, "%s is SQLite %s; Keel needs SQLite 3.22.0 or later", path, found.libversion());
        dlclose(library);
        return 1;
    }
    // The library stays loaded for the life of the process.
    *functions = found;
    return 0;
}

static void keel_sqlite3_load_once(void) {
    // The versioned name is what the runtime package installs (libsqlite3-0 on Debian and
    // Ubuntu, sqlite-libs on Fedora); the plain name is a development link or a custom build.
    static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so"};
    char first[sizeof keel_sqlite3_error / 2] = "";
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        char reason[sizeof keel_sqlite3_error / 2] = "";
        if (keel_sqlite3_load_library(names[index], &keel_sqlite3_functions, reason, sizeof reason) == 0) {
            keel_sqlite3_error[0] = '\0';
            keel_sqlite3_status = 0;
            return;
        }
        if (index == 0) memcpy(first, reason, sizeof first);
    }
    // The first name's reason is the one that matters: the plain name is only a fallback.
    snprintf(keel_sqlite3_error, sizeof keel_sqlite3_error, "%s", first);
    keel_sqlite3_status = 1;
}

int keel_sqlite3_load(void) {
    pthread_once(&keel_sqlite3_once, keel_sqlite3_load_once);
    return keel_sqlite3_status;
}

const char *keel_sqlite3_load_error(void) {
    keel_sqlite3_load();
    return keel_sqlite3_error;
}

#endif
