#!/usr/bin/env bash
# The offline kill tests alone: 100 rounds (or KEEL_OFFLINE_KILL_ROUNDS) of SIGKILL at
# random points during CachingSync writes and as many during a replay, against the local
# Django test server. Linux only. Builds the tests first.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-test-server.sh
swift build --build-tests -Xswiftc -warnings-as-errors
KEEL_OFFLINE_KILL_ROUNDS="${KEEL_OFFLINE_KILL_ROUNDS:-100}" swift test --skip-build --filter OfflineKillTests
