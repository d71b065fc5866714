#!/usr/bin/env bash
# Run Keel's benchmark (swift run -c release keel-bench) and the Backbone.js
# harness (Benchmarks/backbone/bench.js) on this machine and print a Markdown
# comparison table (Benchmarks/compare.py). See Benchmarks/README.md.
#
#   Benchmarks/compare.sh [--readme]
#
#   --readme   also write the table into Benchmarks/README.md, between the
#              <!-- results --> and <!-- /results --> markers
#
# Environment (all optional):
#   RUNS=1           processes per side; the median per workload is reported
#   REPS=3           timed repetitions inside each process (median), both sides
#   KEEL_REPS        override REPS for the Swift side only
#   WORKLOADS=a,b    run a subset (both sides)
#   BACKBONE_DIR     directory prepared by backbone/get-backbone.sh; if unset it
#                    is prepared from BACKBONE_JS + UNDERSCORE_JS (files or npm
#                    tarballs) or from BACKBONE_GIT + UNDERSCORE_GIT (git dirs)
#   BACKBONE_ISOLATE=1   1: one Node process per workload (headline protocol);
#                        0: all workloads in one Node process
#   NODE=node, SWIFT=swift, PYTHON=python3
#   RESULTS_DIR      where raw outputs are kept (default: a new temp dir)
#   KEEL_RESULTS / BACKBONE_RESULTS   space-separated existing output files;
#                    when set, that side is not run (e.g. to re-tabulate)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

readme_arg=()
for arg in "$@"; do
  case "$arg" in
    --readme) readme_arg=(--readme "$here/README.md") ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

RUNS="${RUNS:-1}"
REPS="${REPS:-3}"
KEEL_REPS="${KEEL_REPS:-$REPS}"
BACKBONE_ISOLATE="${BACKBONE_ISOLATE:-1}"
NODE="${NODE:-node}"
SWIFT="${SWIFT:-swift}"
PYTHON="${PYTHON:-python3}"
case "$RUNS" in ''|*[!0-9]*|0) echo "compare.sh: RUNS must be a positive integer" >&2; exit 2 ;; esac

out="${RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/keel-compare.XXXXXX")}"
mkdir -p "$out"
log() { echo "compare.sh: $*" >&2; }

keel_files=()
bb_files=()
if [ -n "${KEEL_RESULTS:-}" ]; then read -r -a keel_files <<< "$KEEL_RESULTS"; fi
if [ -n "${BACKBONE_RESULTS:-}" ]; then read -r -a bb_files <<< "$BACKBONE_RESULTS"; fi
run_keel=$([ "${#keel_files[@]}" -eq 0 ] && echo 1 || echo 0)
run_bb=$([ "${#bb_files[@]}" -eq 0 ] && echo 1 || echo 0)

if [ "$run_bb" = 1 ] && [ -z "${BACKBONE_DIR:-}" ]; then
  if [ -n "${BACKBONE_JS:-}" ] && [ -n "${UNDERSCORE_JS:-}" ]; then
    BACKBONE_DIR="$(OUT_DIR= "$here/backbone/get-backbone.sh")"
  elif [ -n "${BACKBONE_GIT:-}" ] && [ -n "${UNDERSCORE_GIT:-}" ]; then
    BACKBONE_DIR="$(OUT_DIR= "$here/backbone/get-backbone.sh" "$BACKBONE_GIT" "$UNDERSCORE_GIT")"
  else
    log "set BACKBONE_DIR, or BACKBONE_JS + UNDERSCORE_JS, or BACKBONE_GIT + UNDERSCORE_GIT"
    log "(see 'Getting Backbone' in Benchmarks/README.md)"
    exit 2
  fi
  log "Backbone libraries in $BACKBONE_DIR"
fi

if [ "$run_keel" = 1 ]; then
  log "building keel-bench (release)"
  (cd "$root" && "$SWIFT" build -c release --product keel-bench) >&2
fi

# Interleave the two sides so slow drifts of the machine hit both alike.
for i in $(seq 1 "$RUNS"); do
  if [ "$run_keel" = 1 ]; then
    f="$out/keel-$i.txt"
    log "run $i/$RUNS: keel-bench (REPS=$KEEL_REPS) > $f"
    (cd "$root" && REPS="$KEEL_REPS" "$SWIFT" run -c release --skip-build keel-bench) > "$f" \
      || { log "keel-bench failed (exit $?); output in $f"; exit 1; }
    keel_files+=("$f")
  fi
  if [ "$run_bb" = 1 ]; then
    f="$out/backbone-$i.txt"
    log "run $i/$RUNS: backbone bench.js (ISOLATE=$BACKBONE_ISOLATE REPS=$REPS) > $f"
    BACKBONE_DIR="$BACKBONE_DIR" ISOLATE="$BACKBONE_ISOLATE" REPS="$REPS" \
      "$NODE" --expose-gc "$here/backbone/bench.js" > "$f" \
      || { log "bench.js failed (exit $?); output in $f"; exit 1; }
    bb_files+=("$f")
  fi
done

args=()
for f in ${keel_files[@]+"${keel_files[@]}"}; do args+=(--keel "$f"); done
for f in ${bb_files[@]+"${bb_files[@]}"}; do args+=(--backbone "$f"); done
log "raw outputs in $out"
"$PYTHON" "$here/compare.py" "${args[@]}" --host-info --json-out "$out/summary.json" ${readme_arg[@]+"${readme_arg[@]}"}
