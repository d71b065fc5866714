#!/usr/bin/env bash
# Count the instructions of Keel's timed region in one or more workloads with valgrind's
# callgrind, which counts repeatably where wall-clock times move (see Benchmarks/README.md).
#
#   Benchmarks/profile.sh WORKLOAD [WORKLOAD ...]
#
# For each workload: builds keel-bench (release), runs its Keel trial (or, with SIDE, one of
# its floors) once under callgrind with PROFILE=1 (no warm-up, no other trial), collecting
# only inside timedRegion, and prints the instructions per operation and the functions that
# take the most, inclusive.
#
# The live-query workloads of STORE_QUERIES=1 (query_open, query_change) hand work to other
# threads (a task, the SQLite store's queue), which timedRegion's thread does not see: they
# run their side twice, and callgrind counts every thread between the second run's
# profiledRegionStart and profiledRegionEnd (--zero-before, --dump-before). Their total is
# the sum of self costs; in their inclusive listing, the frames open at the zeroing (thread
# starts, the task that awaits) also count what ran before it, so read below those.
#
# Environment (all optional):
#   OUT_DIR=dir   where the callgrind.WORKLOAD.out files go (default: a new temp dir)
#   LINES=40      how many lines of the callgrind_annotate listing to print
#   KEEL_BENCH=path  profile this keel-bench binary instead of building one (a copy kept
#                 from an earlier commit gives before/after counts from one checkout)
#   SIDE=keel     which trial to count: keel, floor (the machine floor) or same-work
#   WARMUP=1      run the trial once uncounted first (PROFILE_WARMUP=1), so that one-time
#                 costs (runtime metadata, first conformance lookups) are not counted; the
#                 default counts one cold trial, as every figure in Benchmarks/README.md was
#                 counted unless it says otherwise (not for the STORE_QUERIES workloads,
#                 which already count a second run)
#
# Needs valgrind (apt-get install valgrind). Under callgrind a workload runs 20-50 times
# slower than natively: a minute or several for the larger ones.
set -euo pipefail

if [ $# -eq 0 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit $([ $# -eq 0 ] && echo 2 || echo 0)
fi
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is not installed" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/keel-profile.XXXXXX")}"
mkdir -p "$out"
if [ -n "${KEEL_BENCH:-}" ]; then
  bench="$KEEL_BENCH"
else
  (cd "$root" && swift build -c release --product keel-bench >&2)
  bench="$(cd "$root" && swift build -c release --show-bin-path)/keel-bench"
fi

for workload in "$@"; do
  file="$out/callgrind.$workload.out"
  case "$workload" in
    query_open | query_change)
      # One dump at the region's end (the file with suffix .1), one of the rest at exit.
      ops=$(PROFILE=1 PROFILE_SIDE="${SIDE:-keel}" STORE_QUERIES=1 WORKLOADS="$workload" valgrind --tool=callgrind \
        --zero-before='*profiledRegionStart*' --dump-before='*profiledRegionEnd*' \
        --callgrind-out-file="$file.part" "$bench" 2>/dev/null | awk -v w="$workload" '$1 == w { print $2 }')
      [ -f "$file.part.1" ] && mv "$file.part.1" "$file"
      rm -f "$file".part* ;;
    *)
      ops=$(PROFILE=1 PROFILE_WARMUP="${WARMUP:-0}" PROFILE_SIDE="${SIDE:-keel}" WORKLOADS="$workload" valgrind --tool=callgrind --toggle-collect='*timedRegion*' \
        --callgrind-out-file="$file" "$bench" 2>/dev/null | awk -v w="$workload" '$1 == w { print $2 }') ;;
  esac
  [ -n "$ops" ] && [ -f "$file" ] || { echo "profile.sh: $workload did not run (see: PROFILE=1 WORKLOADS=$workload $bench)" >&2; exit 1; }
  case "$workload" in
    # The sum of the self costs (a cost line not after a calls= line): the file's total
    # also counts, in the frames open when the counters were zeroed, what ran before.
    query_open | query_change)
      total=$(awk '/^calls=/ { call = 1; next } /^[0-9+*-]/ { if (call) call = 0; else total += $2 } END { printf "%.0f", total }' "$file") ;;
    *)
      total=$(callgrind_annotate "$file" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }') ;;
  esac
  echo "== $workload: $total instructions for $ops operations, $((total / ops)) per operation ($file)"
  # The listing without the harness's own frames (process start, main, trial, region). It
  # is cut with awk, which reads to the end: `head` would close the pipe early, and with
  # pipefail the SIGPIPE of the commands before it would end the script after one workload.
  callgrind_annotate --inclusive=yes "$file" | grep -E '^ *[0-9,]+ \(' | sed -n '2,$p' \
    | grep -vE 'libc-start|libc_start_call_main|below main|keel_bench_main|Trial\.swift|timedRegion|Stopwatch|\?\?\?:0x' \
    | awk -v n="${LINES:-40}" 'NR <= n' \
    | { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; } | cut -c1-160
done
