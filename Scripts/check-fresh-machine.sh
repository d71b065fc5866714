#!/usr/bin/env bash
# Checks the README's first command as a fresh machine runs it: SQLite's development files
# (package libsqlite3-dev: sqlite3.h, libsqlite3.so, sqlite3.pc) hidden, a fresh clone of
# the committed tree, `swift run todos add` with an empty data directory, and a package
# that depends only on the product Keel, whose build must print no warning.
#
#   Scripts/check-fresh-machine.sh
#
# Linux only. The files are hidden in a private mount namespace (`unshare -m`, as root, or
# `unshare -rm` in a user namespace otherwise), so the machine keeps them. Not part of
# Scripts/test.sh: the fresh clone is built from scratch (several minutes on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${KEEL_FRESH_MACHINE:-}" != 1 ]; then
  if [ "$(id -u)" -eq 0 ]; then namespace=(unshare -m); else namespace=(unshare -rm); fi
  exec env KEEL_FRESH_MACHINE=1 "${namespace[@]}" "$0" "$@"
fi

# Inside the namespace: hide every development file of SQLite that exists. A mount follows
# symbolic links, so the link libsqlite3.so -> libsqlite3.so.0.x (which the linker's
# -lsqlite3 would use) cannot be hidden without hiding the runtime library; instead the
# binaries are checked below not to need libsqlite3 at load time.
for file in /usr/include/sqlite3.h /usr/include/sqlite3ext.h /usr/lib/*/libsqlite3.a \
  /usr/lib/*/pkgconfig/sqlite3.pc /usr/lib/pkgconfig/sqlite3.pc /usr/share/pkgconfig/sqlite3.pc; do
  if [ -f "$file" ] && [ ! -L "$file" ]; then mount --bind /dev/null "$file"; fi
done
if [ -s /usr/include/sqlite3.h ]; then echo "FAIL  sqlite3.h could not be hidden" >&2; exit 1; fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
git clone --quiet "$PWD" "$WORK/keel"

echo "Building and running todos in a fresh clone without SQLite's development files…"
(cd "$WORK/keel" && XDG_DATA_HOME="$WORK/data" HOME="$WORK/home" swift run todos add "Read the Keel README") \
  > "$WORK/todos.log" 2>&1 || { cat "$WORK/todos.log"; echo "FAIL  swift run todos add"; exit 1; }
if ! grep -q "Read the Keel README" "$WORK/todos.log"; then
  cat "$WORK/todos.log"
  echo "FAIL  todos did not add the todo"
  exit 1
fi
if ldd "$WORK/keel/.build/debug/todos" | grep -q libsqlite3; then
  echo "FAIL  todos links libsqlite3 at load time; KeelSQLite must load it with dlopen"
  exit 1
fi
echo "ok    swift run todos add"

mkdir -p "$WORK/app/Sources/App"
cat > "$WORK/app/Package.swift" << EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "$WORK/keel")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Keel", package: "keel")])]
)
EOF
cat > "$WORK/app/Sources/App/main.swift" << 'EOF'
import Keel

let notes = Collection<Model>(url: "/notes", sync: InMemorySync())
print("Keel-only app:", notes.count)
EOF
if ! (cd "$WORK/app" && swift build) > "$WORK/app.log" 2>&1; then
  cat "$WORK/app.log"
  echo "FAIL  a Keel-only package"
  exit 1
fi
if grep -i "warning" "$WORK/app.log"; then
  echo "FAIL  a package that uses only Keel builds with warnings"
  exit 1
fi
echo "ok    a package that uses only Keel builds without warnings"
