#!/usr/bin/env bash
# Prepare a directory from which Benchmarks/backbone/bench.js can load
# Backbone 1.6.1 and Underscore 1.13.x, and print its path on stdout:
#
#   DIR/backbone.js
#   DIR/node_modules/underscore/underscore.js
#   DIR/node_modules/underscore/package.json
#   DIR/package.json       (private marker, no dependencies to install)
#   DIR/PROVENANCE         (where the two files came from, sha256)
#
# Nothing here is committed: the directory is a throw-away (default: a new
# temp dir; set OUT_DIR to choose one). See Benchmarks/README.md for how to
# get the two libraries.
#
# Usage, one of:
#   (a) files you already have:
#       BACKBONE_JS=path UNDERSCORE_JS=path get-backbone.sh
#       Each path may be the .js file itself, an `npm pack` tarball
#       (backbone-1.6.1.tgz, underscore-1.13.8.tgz), or a package/checkout
#       directory (node_modules/backbone, a clone of the repository, ...).
#       For Underscore the UMD build is used: underscore.js, else
#       underscore-umd.js (identical in 1.13.x releases and npm tarballs; in a
#       git checkout past a release only underscore.js stays at the release).
#   (b) git repositories (bare mirrors or ordinary clones):
#       get-backbone.sh BACKBONE_GIT_DIR UNDERSCORE_GIT_DIR
#       The files are read at tag 1.6.1 and 1.13.8 when those tags exist,
#       else at HEAD; override with BACKBONE_REV / UNDERSCORE_REV.
#
# Env: OUT_DIR (target directory, created; must be empty or absent),
#      ALLOW_OTHER_VERSIONS=1 (accept Backbone != 1.6.1 / Underscore != 1.13.x).
set -euo pipefail

die() { echo "get-backbone.sh: $*" >&2; exit 1; }

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  else echo unknown; fi
}

# new_out: create the output directory
if [ -n "${OUT_DIR:-}" ]; then
  out="$OUT_DIR"
  if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    die "OUT_DIR $out exists and is not empty"
  fi
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
else
  out="$(mktemp -d "${TMPDIR:-/tmp}/keel-backbone.XXXXXX")"
fi
done_ok=0
trap '[ "$done_ok" = 1 ] || rm -rf "$out"' EXIT
mkdir -p "$out/node_modules/underscore"
bb_dst="$out/backbone.js"
us_dst="$out/node_modules/underscore/underscore.js"
prov="$out/PROVENANCE"
: > "$prov"

# from_path SRC DST CANDIDATES...: copy a library file from a .js file, an npm
# tarball, or a directory. CANDIDATES are file names to try, in order.
from_path() {
  local src="$1" dst="$2"; shift 2
  local name
  [ -e "$src" ] || die "$src does not exist"
  if [ -d "$src" ]; then
    for name in "$@"; do
      if [ -f "$src/$name" ]; then cp "$src/$name" "$dst"; echo "$src/$name"; return; fi
    done
    die "none of ($*) found in directory $src"
  fi
  case "$src" in
    *.tgz|*.tar.gz)
      for name in "$@"; do
        if tar -xzOf "$src" "package/$name" > "$dst" 2>/dev/null && [ -s "$dst" ]; then
          echo "$src:package/$name"; return
        fi
      done
      die "none of ($*) found under package/ in tarball $src"
      ;;
    *)
      cp "$src" "$dst"; echo "$src"
      ;;
  esac
}

# from_git GITDIR REV DST CANDIDATES...: write REV:candidate to DST.
from_git() {
  local dir="$1" rev="$2" dst="$3"; shift 3
  local name commit
  commit="$(git -C "$dir" rev-parse --verify --quiet "$rev^{commit}")" || die "no revision $rev in $dir"
  for name in "$@"; do
    if git -C "$dir" cat-file -e "$commit:$name" 2>/dev/null; then
      git -C "$dir" show "$commit:$name" > "$dst"
      echo "$dir @ $rev ($commit):$name"; return
    fi
  done
  die "none of ($*) found in $dir at $rev"
}

# default_rev GITDIR TAG: TAG if the repository has it, else HEAD.
default_rev() {
  if git -C "$1" rev-parse --verify --quiet "refs/tags/$2^{commit}" >/dev/null; then echo "$2"; else echo HEAD; fi
}

if [ "$#" -ge 2 ]; then
  bb_git="$1"; us_git="$2"
  bb_rev="${BACKBONE_REV:-$(default_rev "$bb_git" 1.6.1)}"
  us_rev="${UNDERSCORE_REV:-$(default_rev "$us_git" 1.13.8)}"
  bb_src="$(from_git "$bb_git" "$bb_rev" "$bb_dst" backbone.js)"
  us_src="$(from_git "$us_git" "$us_rev" "$us_dst" underscore.js underscore-umd.js)"
elif [ "$#" -eq 0 ] && [ -n "${BACKBONE_JS:-}" ] && [ -n "${UNDERSCORE_JS:-}" ]; then
  bb_src="$(from_path "$BACKBONE_JS" "$bb_dst" backbone.js)"
  us_src="$(from_path "$UNDERSCORE_JS" "$us_dst" underscore.js underscore-umd.js)"
else
  cat >&2 <<'EOF'
usage: BACKBONE_JS=path UNDERSCORE_JS=path get-backbone.sh
       get-backbone.sh BACKBONE_GIT_DIR UNDERSCORE_GIT_DIR
(see the header of this script and Benchmarks/README.md)
EOF
  exit 2
fi

# Versions, read from the files themselves.
bb_ver="$(sed -n "s/^ *Backbone\.VERSION = '\([^']*\)'.*/\1/p" "$bb_dst" | head -n1)"
us_ver="$(sed -n "s/^ *var VERSION = '\([^']*\)'.*/\1/p" "$us_dst" | head -n1)"
if [ -z "$us_ver" ]; then
  us_ver="$(sed -n "s/.*VERSION = '\([0-9][^']*\)'.*/\1/p" "$us_dst" | head -n1)"
fi
if [ "${ALLOW_OTHER_VERSIONS:-0}" != 1 ]; then
  [ "$bb_ver" = 1.6.1 ] || die "expected Backbone 1.6.1, got '${bb_ver:-?}' from $bb_src (ALLOW_OTHER_VERSIONS=1 to accept)"
  case "$us_ver" in
    1.13.*) ;;
    *) die "expected Underscore 1.13.x, got '${us_ver:-?}' from $us_src (ALLOW_OTHER_VERSIONS=1 to accept)" ;;
  esac
fi

cat > "$out/node_modules/underscore/package.json" <<EOF
{"name": "underscore", "version": "$us_ver", "main": "underscore.js"}
EOF
cat > "$out/package.json" <<EOF
{"name": "keel-backbone-bench-libs", "private": true, "description": "Backbone $bb_ver + Underscore $us_ver for Benchmarks/backbone/bench.js; generated by get-backbone.sh"}
EOF
{
  echo "backbone_version=$bb_ver"
  echo "backbone_source=$bb_src"
  echo "backbone_sha256=$(sha256 "$bb_dst")"
  echo "underscore_version=$us_ver"
  echo "underscore_source=$us_src"
  echo "underscore_sha256=$(sha256 "$us_dst")"
} >> "$prov"

# Smoke test: Node must load both from here, as bench.js does.
if command -v node >/dev/null 2>&1; then
  loaded="$(cd "$out" && node -e '
    const B = require(process.argv[1] + "/backbone.js");
    const u = require(process.argv[1] + "/node_modules/underscore");
    console.log(B.VERSION + " " + u.VERSION);' "$out")" || die "node cannot load the libraries from $out"
  [ "$loaded" = "$bb_ver $us_ver" ] || die "node loaded '$loaded', expected '$bb_ver $us_ver'"
fi

done_ok=1
echo "$out"
