#!/usr/bin/env bash
# Compiles and runs every page of every playground against the built Keel and KeelSQLite
# libraries, on Linux as on macOS, and checks that contents.xcplayground lists exactly
# the pages there are. A page fails when it does not compile or a `precondition` in it
# fails; the compiler's errors or the page's own output (with the precondition's
# message) are printed then.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target KeelSQLite -Xswiftc -warnings-as-errors
BIN="$(swift build --show-bin-path)"
# KeelSQLite's C module (SQLite's declarations, and its loader, whose objects are linked).
# On Apple platforms it links the SDK's libsqlite3; elsewhere it loads libsqlite3.so.0 at run time.
CSQLITE=(-Xcc -fmodule-map-file="$BIN/CKeelSQLite.build/module.modulemap" -Xcc -I -Xcc Sources/CKeelSQLite/include)
if [ "$(uname -s)" = Darwin ]; then CSQLITE+=(-lsqlite3); else CSQLITE+=(-ldl); fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
shopt -s nullglob
status=0
pages=0
for playground in Playgrounds/*.playground; do
  # Xcode shows only the pages contents.xcplayground lists, in its order.
  listed="$(sed -n "s/.*<page name='\([^']*\)'.*/\1/p" "$playground/contents.xcplayground")"
  for name in $listed; do
    if [ ! -d "$playground/Pages/$name.xcplaygroundpage" ]; then
      echo "FAIL  $playground/contents.xcplayground lists a page '$name' that does not exist"
      status=1
    fi
  done
  for page in "$playground"/Pages/*.xcplaygroundpage; do
    pages=$((pages + 1))
    name="$(basename "$page" .xcplaygroundpage)"
    if ! printf '%s\n' "$listed" | grep -qx "$name"; then
      echo "FAIL  $page is not listed in $playground/contents.xcplayground"
      status=1
    fi
    {
      echo "#sourceLocation(file: \"$PWD/$page/Contents.swift\", line: 1)"
      cat "$page/Contents.swift"
    } > "$WORK/main.swift"
    if ! swiftc -swift-version 6 -warnings-as-errors -I "$BIN/Modules" "${CSQLITE[@]}" \
         "$playground"/Sources/*.swift "$WORK/main.swift" \
         "$BIN/Keel.build/"*.o "$BIN/KeelSQLite.build/"*.o "$BIN/CKeelSQLite.build/"*.o \
         -o "$WORK/page" > "$WORK/compile.log" 2>&1; then
      echo "FAIL  $page (does not compile)"
      head -80 "$WORK/compile.log"
      status=1
    # Without the backtracer's report, the precondition's message is the end of the output.
    elif ! SWIFT_BACKTRACE=enable=no "$WORK/page" > "$WORK/run.log" 2>&1; then
      echo "FAIL  $page (a precondition failed; its output follows)"
      tail -60 "$WORK/run.log"
      status=1
    else
      echo "ok    $page"
    fi
  done
done
if [ "$pages" -eq 0 ]; then
  echo "no playground pages found" >&2
  exit 1
fi
if [ "$status" -eq 0 ]; then echo "$pages playground pages compiled and run"; fi
exit $status
