#!/usr/bin/env bash
# Installs the Python venv used by Keel's integration-test server (Tests/Server).
#
#   Scripts/install-test-server.sh [-v|--verbose]
#
# Idempotent: creates ${KEEL_TEST_VENV:-.build/test-server-venv} (relative to
# the repo root) if it is missing, and pip-installs Tests/Server/requirements.txt
# into it unless a stamp file says this exact requirements.txt (and Python) is
# already installed. Silent unless -v / KEEL_VERBOSE=1; errors go to stderr and
# the exit status is non-zero. Set PYTHON to pick the interpreter (default python3).
set -euo pipefail

cd "$(dirname "$0")/.."

VERBOSE="${KEEL_VERBOSE:-0}"
for arg in "$@"; do
    case "$arg" in
        -v|--verbose) VERBOSE=1 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-test-server.sh: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

PYTHON="${PYTHON:-python3}"
VENV="${KEEL_TEST_VENV:-.build/test-server-venv}"
REQUIREMENTS="Tests/Server/requirements.txt"
STAMP="$VENV/.keel-requirements.sha256"

log() { if [ "$VERBOSE" != 0 ]; then echo "install-test-server: $*"; fi; }
die() { echo "install-test-server: error: $*" >&2; exit 1; }

# Run a command; show its output only if verbose or if it fails.
run() {
    if [ "$VERBOSE" != 0 ]; then
        "$@"
        return
    fi
    local out
    if ! out="$("$@" 2>&1)"; then
        printf '%s\n' "$out" >&2
        return 1
    fi
}

[ -f "$REQUIREMENTS" ] || die "$REQUIREMENTS not found (run from a Keel checkout)"
command -v "$PYTHON" >/dev/null 2>&1 || die "'$PYTHON' not found; install Python 3.10+ or set PYTHON=/path/to/python3"

hash_file() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

# Recreate the venv if its interpreter is gone or broken (e.g. the base Python moved).
if [ -e "$VENV" ] && ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    log "venv at $VENV is broken; recreating it"
    rm -rf "$VENV"
fi

if [ ! -x "$VENV/bin/python" ]; then
    log "creating venv at $VENV with $PYTHON"
    mkdir -p "$(dirname "$VENV")"
    if ! run "$PYTHON" -m venv "$VENV"; then
        # Debian's system python3 lacks ensurepip unless python3-venv is
        # installed: fall back to virtualenv, installed into a temporary dir.
        log "'$PYTHON -m venv' failed; falling back to virtualenv"
        rm -rf "$VENV"
        tmp="$(mktemp -d)"
        trap 'rm -rf "$tmp"' EXIT
        run "$PYTHON" -m pip install --quiet --disable-pip-version-check --target "$tmp" virtualenv \
            || die "could not create a venv: '$PYTHON -m venv' failed and virtualenv could not be installed (on Debian: apt-get install python3-venv)"
        run env PYTHONPATH="$tmp" "$PYTHON" -m virtualenv --quiet "$VENV" \
            || die "could not create a venv at $VENV with virtualenv"
    fi
fi

PY_VERSION="$("$VENV/bin/python" -c 'import sys; print(sys.version.split()[0])')" \
    || die "the venv's python does not run"
WANT="$(hash_file "$REQUIREMENTS") python-$PY_VERSION"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANT" ]; then
    log "requirements already installed in $VENV"
    exit 0
fi

log "installing $REQUIREMENTS into $VENV"
rm -f "$STAMP"
PIP_QUIET=()
[ "$VERBOSE" != 0 ] || PIP_QUIET=(--quiet)
run "$VENV/bin/python" -m pip install ${PIP_QUIET[@]+"${PIP_QUIET[@]}"} --disable-pip-version-check --no-input \
    --requirement "$REQUIREMENTS" \
    || die "pip install -r $REQUIREMENTS failed (is PyPI reachable?)"
run "$VENV/bin/python" -c 'import django, rest_framework, gunicorn' \
    || die "Django / djangorestframework / gunicorn do not import from $VENV after installing"
printf '%s\n' "$WANT" > "$STAMP"
log "done: $("$VENV/bin/python" -m pip --disable-pip-version-check freeze 2>/dev/null | tr '\n' ' ')"
