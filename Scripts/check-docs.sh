#!/usr/bin/env bash
# Builds the DocC documentation of Keel and KeelSQLite with warnings as errors, which
# catches broken symbol links in documentation comments and articles.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
swift package dump-symbol-graph --minimum-access-level public > "$WORK/dump.log"
GRAPHS="$(grep -o '/[^ ]*symbolgraph' "$WORK/dump.log" | tail -1)"
status=0
for module in Keel KeelSQLite; do
  mkdir -p "$WORK/$module-graphs"
  cp "$GRAPHS/$module"*.symbols.json "$WORK/$module-graphs/"
  if docc convert "Sources/$module/$module.docc" \
       --additional-symbol-graph-dir "$WORK/$module-graphs" \
       --fallback-display-name "$module" --fallback-bundle-identifier "org.keel.$module" \
       --output-path "$WORK/$module.doccarchive" --warnings-as-errors > "$WORK/$module.log" 2>&1; then
    echo "ok    $module documentation"
  else
    echo "FAIL  $module documentation"
    grep -E "^(warning|error)|^ *--> " "$WORK/$module.log" | head -80
    status=1
  fi
done
if [ "$status" -eq 0 ]; then echo "Keel and KeelSQLite documentation built"; fi
exit $status
