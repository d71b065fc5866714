#!/usr/bin/env bash
# The offline kill tests at the issue's full count: 100 rounds of SIGKILL at random points
# during CachingSync writes and 100 during a replay, against the local Django test server
# (the test suite runs 20 of each). Linux only. Builds the tests first.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-test-server.sh
swift build --build-tests -Xswiftc -warnings-as-errors
KEEL_OFFLINE_KILL_ROUNDS="${KEEL_OFFLINE_KILL_ROUNDS:-100}" swift test --skip-build --filter OfflineKillTests
