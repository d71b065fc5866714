#!/usr/bin/env bash
# Replay throughput of queued writes against Keel's local Django test server (issue 15).
#
#   Benchmarks/replay.sh
#
# Installs the test server's venv if needed (Scripts/install-test-server.sh), builds
# keel-bench (release), starts Tests/Server/serve.py with the venv's Python on 127.0.0.1
# (a fresh database, as the tests do), runs `REPLAY_URL=http://127.0.0.1:PORT keel-bench`
# and stops the server. keel-bench queues REPLAY_WRITES creates of /notes offline in a
# CachingSync and times replay(), beside the same creates sent directly through RESTSync
# (with and without Idempotency-Key), and prints one JSON object. Afterwards the script
# checks the server's /__creates: exactly 3 x REPLAY_WRITES x REPS creates, no replays.
#
# Environment (all optional):
#   REPLAY_WRITES=1000   creates per repetition
#   REPS=1               repetitions (the JSON reports every time and the medians)
#   PORT=0               the server's port (0: an ephemeral one)
#   KEEL_TEST_VENV=dir   the venv (default .build/test-server-venv), as for the tests
set -euo pipefail

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
writes="${REPLAY_WRITES:-1000}"
reps="${REPS:-1}"
venv="${KEEL_TEST_VENV:-.build/test-server-venv}"
case "$venv" in /*) ;; *) venv="$root/$venv" ;; esac

Scripts/install-test-server.sh
swift build -c release --product keel-bench >&2
bench="$(swift build -c release --show-bin-path)/keel-bench"

output="$(mktemp "${TMPDIR:-/tmp}/keel-replay-server.XXXXXX")"
# --standalone: the server runs until SIGTERM instead of until its stdin closes.
"$venv/bin/python" Tests/Server/serve.py --port "${PORT:-0}" --standalone >"$output" 2>&1 &
server=$!
stop_server() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$output"
}
trap stop_server EXIT

port=""
for _ in $(seq 1 600); do
  port="$(sed -n 's/^KEEL_TEST_SERVER_PORT=//p' "$output" | head -n 1)"
  [ -n "$port" ] && break
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "replay.sh: the test server did not start:" >&2
  cat "$output" >&2
  exit 1
fi
echo "replay.sh: test server on 127.0.0.1:$port" >&2

REPLAY_URL="http://127.0.0.1:$port" REPLAY_WRITES="$writes" REPS="$reps" "$bench"

"$venv/bin/python" - "$port" "$((3 * writes * reps))" <<'PYTHON'
import json
import sys
import urllib.request

port, expected = sys.argv[1], int(sys.argv[2])
with urllib.request.urlopen(f"http://127.0.0.1:{port}/__creates") as response:
    counts = json.load(response).get("/notes", {})
creates, replays = counts.get("creates", 0), counts.get("replays", 0)
print(f"replay.sh: the server counted {creates} creates of /notes (expected {expected}) and {replays} replays (expected 0)",
      file=sys.stderr)
sys.exit(0 if (creates, replays) == (expected, 0) else 1)
PYTHON
