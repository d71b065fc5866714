#!/usr/bin/env bash
# Runs the test suite under the thread sanitizer, in a build directory of its own
# (.build-tsan) so the ordinary build is kept. It must report no warnings.
#
#   Scripts/check-races.sh
#
# Not part of Scripts/test.sh: the first sanitized build compiles everything again
# (several minutes on two cores) and the run takes about three times as long. Under that
# load the one test that bounds a wall-clock time from above (a 300 ms timeout must fire
# within 1.5 s, aSubSecondTimeoutWaitsForItsLimit) can fail; what counts here is that no
# ThreadSanitizer warning is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-test-server.sh
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
swift test --skip-build --sanitize=thread --scratch-path .build-tsan
