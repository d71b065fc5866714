#!/usr/bin/env bash
# Installs what Keel's Rails integration-test server (Tests/RailsServer) needs:
# Ruby with Rails 6.1, Puma, the SQLite adapter, ActiveModelSerializers 0.10 and Kaminari,
# from Debian's packages.
#
#   Scripts/install-rails-server.sh [-v|--verbose]
#
# Idempotent: does nothing when `ruby` already loads rails, puma, sqlite3,
# active_model_serializers and kaminari; otherwise runs `apt-get install ruby-rails
# puma ruby-sqlite3 ruby-active-model-serializers ruby-kaminari` (through sudo
# when not root; `apt-get update` first). No gems come from rubygems.org: the
# app boots with the system gems alone. Silent unless -v / KEEL_VERBOSE=1;
# errors go to stderr and the exit status is non-zero.
set -euo pipefail

cd "$(dirname "$0")/.."

VERBOSE="${KEEL_VERBOSE:-0}"
for arg in "$@"; do
    case "$arg" in
        -v|--verbose) VERBOSE=1 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-rails-server.sh: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

PACKAGES=(ruby-rails puma ruby-sqlite3 ruby-active-model-serializers ruby-kaminari)
CHECK='gem "rails", "~> 6.1.0"; require "rails"; require "puma"; require "sqlite3"; gem "active_model_serializers", "~> 0.10.12"; require "active_model_serializers"; require "kaminari"'

log() { if [ "$VERBOSE" != 0 ]; then echo "install-rails-server: $*"; fi; }
die() { echo "install-rails-server: error: $*" >&2; exit 1; }

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

[ -f Tests/RailsServer/serve ] || die "Tests/RailsServer/serve not found (run from a Keel checkout)"

installed() { command -v ruby >/dev/null 2>&1 && ruby -e "$CHECK" >/dev/null 2>&1; }

if installed; then
    log "already installed: $(ruby -e 'require "rails"; require "puma"; print "Ruby #{RUBY_VERSION}, Rails #{Rails.version}, Puma #{Puma::Const::VERSION}"')"
    exit 0
fi

command -v apt-get >/dev/null 2>&1 \
    || die "Ruby with Rails 6.1, Puma, sqlite3, active_model_serializers 0.10 or kaminari is missing and apt-get is not available; install them yourself (e.g. Debian's ${PACKAGES[*]}) so that \`ruby -e '$CHECK'\` succeeds"

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "not root and sudo is missing; run as root: apt-get install ${PACKAGES[*]}"
    SUDO=(sudo)
fi

log "installing ${PACKAGES[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
run ${SUDO[@]+"${SUDO[@]}"} apt-get update -qq || die "apt-get update failed"
run ${SUDO[@]+"${SUDO[@]}"} apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" \
    || die "apt-get install ${PACKAGES[*]} failed"
installed || die "ruby still cannot load rails 6.1, puma, sqlite3, active_model_serializers and kaminari after installing ${PACKAGES[*]}"
log "done: $(ruby -e 'require "rails"; require "puma"; print "Ruby #{RUBY_VERSION}, Rails #{Rails.version}, Puma #{Puma::Const::VERSION}"')"
