#!/usr/bin/env bash
# Keel's test command: installs what the tests need (the Django test server in a local
# virtual environment; the Rails test server's Ruby, Rails 6.1, Puma and sqlite3, through
# sudo when not root, if they are missing), builds everything with warnings as errors,
# runs the whole test suite, compiles and runs every playground page and every Swift
# example of the README and the DocC articles, and builds the documentation with
# warnings as errors.
#
#   Scripts/test.sh [-v]
#
# Quiet by default: one line per step, and a step's output only when it fails. Of
# `swift test` it prints the failures and, verbatim, the closing line (`✔ Test run with
# N tests in M suites passed after …`, or `✘ Test run … failed …`), which CI reads.
# -v or KEEL_VERBOSE=1 prints everything. The exit status is non-zero when any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

verbose="${KEEL_VERBOSE:-0}"
for argument in "$@"; do
  case "$argument" in
    -v | --verbose) verbose=1 ;;
    *) echo "test.sh: unknown argument: $argument (use -v for all output)" >&2; exit 2 ;;
  esac
done
export KEEL_VERBOSE="$verbose"
LOGS="$(mktemp -d)"
trap 'rm -rf "$LOGS"' EXIT

# Runs one step: all output with -v; otherwise `ok    <name>: <its last line>` (or just
# the name when `summary` is empty), or its whole output when it fails.
run_step() {
  local name="$1" summary="$2"
  shift 2
  if [ "$verbose" = 1 ]; then
    "$@"
    return
  fi
  local status=0
  "$@" > "$LOGS/step.log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    if [ -n "$summary" ]; then echo "ok    $name: $(tail -1 "$LOGS/step.log")"; else echo "ok    $name"; fi
  else
    echo "FAIL  $name"
    cat "$LOGS/step.log"
  fi
  return "$status"
}

# Runs the test suite; quietly, it keeps only the failures and the closing line.
run_tests() {
  if [ "$verbose" = 1 ]; then
    swift test --skip-build
    return
  fi
  local status=0
  swift test --skip-build > "$LOGS/test.log" 2>&1 || status=$?
  # Failures (✘) with their details (↳ lines right after them), and the closing line.
  awk '/^✘/ { print; details = 1; next }
       details && /^[[:space:]]*↳/ { print; next }
       { details = 0 }
       /^✔ Test run with / { print }' "$LOGS/test.log"
  if [ "$status" -ne 0 ] && ! grep -q '^✘' "$LOGS/test.log"; then
    # A crash or a failure outside Swift Testing: show how the output ends.
    echo "FAIL  swift test exited with status $status; the end of its output:"
    tail -60 "$LOGS/test.log"
  fi
  return "$status"
}

run_step "test server" "" Scripts/install-test-server.sh
run_step "rails server" "" Scripts/install-rails-server.sh
run_step "build (warnings as errors)" "" swift build --build-tests -Xswiftc -warnings-as-errors

failed=0
run_tests || failed=1
run_step "playgrounds" summary Scripts/check-playgrounds.sh || failed=1
run_step "documentation examples" summary Scripts/check-doc-snippets.sh || failed=1
run_step "documentation" summary Scripts/check-docs.sh || failed=1
if [ "$failed" -ne 0 ]; then
  echo "Some checks failed; Scripts/test.sh -v shows all output." >&2
  exit 1
fi
