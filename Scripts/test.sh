#!/usr/bin/env bash
# Keel's test command: installs what the tests need (the Django test server in a local
# virtual environment, SQLite's headers if missing), builds everything with warnings as
# errors, runs the whole test suite, compiles and runs every playground page, and builds
# the documentation with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f /usr/include/sqlite3.h ] && command -v apt-get > /dev/null; then
  echo "Installing libsqlite3-dev…"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq libsqlite3-dev > /dev/null
fi

Scripts/install-test-server.sh

swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
Scripts/check-playgrounds.sh
Scripts/check-docs.sh
