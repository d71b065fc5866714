#!/usr/bin/env bash
# Compiles and runs the ```swift code blocks of README.md and of every DocC article
# (Sources/*/*.docc/*.md) against the built Keel and KeelSQLite libraries, on Linux as on
# macOS, so that the documentation's examples keep compiling. A file fails when its
# program does not compile, traps, or runs longer than 60 seconds.
#
# Conventions for writing the blocks:
# - The ```swift blocks of one file form one program, in order, like a playground page:
#   a block may use what the blocks before it declare. The program starts with
#   `import Keel`; a block that needs another module (Foundation, KeelSQLite) imports it.
#   Only ```swift blocks count: ```sh blocks and blocks without a language are ignored.
# - The program compiles in the Swift 6 language mode with warnings as errors, like the
#   playgrounds: to show a value, bind it (`let titles = todos.map { $0["title"] }  //
#   ["Bread", "Milk"]`) or print it, since an unused expression is a warning.
# - An HTML comment on a line before the opening fence (blank lines may come between)
#   changes how the next block is checked; readers of the rendered page never see it.
#   Words combine, and a reason may follow in parentheses, as in
#   <!-- snippet: macos-only no-run (needs a server) -->.
#     <!-- snippet: skip -->        not checked at all: not Swift code of a program, such
#                                   as a Package.swift fragment.
#     <!-- snippet: no-run -->      compiled but not run, for code that needs a network
#                                   server. The run stops before this block, so the
#                                   blocks after it are not run either: put such blocks
#                                   last.
#     <!-- snippet: linux-only -->  checked only on Linux.
#     <!-- snippet: macos-only -->  checked only on macOS.
# - Tests: when a block has `import Testing`, the program ends by running every `@Test` of
#   the file with Swift Testing (through the entry point `swift test` uses), and the file
#   fails when a test fails, so an article's tests are run, not only compiled. A test that
#   needs a server goes in a no-run block, which is compiled only.
# - The program runs in a scratch directory, which is also its home directory (HOME, and
#   CFFIXED_USER_HOME for Foundation on macOS), XDG_DATA_HOME and TMPDIR, so examples
#   that write files leave nothing behind.
#
# Usage: Scripts/check-doc-snippets.sh [-v] [file.md …]
#   -v (or KEEL_VERBOSE=1) also prints each file's program and the output of its run.
set -euo pipefail
cd "$(dirname "$0")/.."
verbose="${KEEL_VERBOSE:-0}"
if [ "${1:-}" = "-v" ]; then
  verbose=1
  shift
fi
shopt -s nullglob
if [ "$#" -gt 0 ]; then files=("$@"); else files=(README.md Sources/*/*.docc/*.md); fi

swift build --target KeelSQLite -Xswiftc -warnings-as-errors > /dev/null
BIN="$(swift build --show-bin-path)"
# KeelSQLite's C module (SQLite's declarations, and its loader, whose objects are linked).
# On Apple platforms it links the SDK's libsqlite3; elsewhere it loads libsqlite3.so.0 at run time.
CSQLITE=(-Xcc -fmodule-map-file="$BIN/CKeelSQLite.build/module.modulemap" -Xcc -I -Xcc Sources/CKeelSQLite/include)
if [ "$(uname -s)" = Darwin ]; then CSQLITE+=(-lsqlite3); else CSQLITE+=(-ldl); fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
case "$(uname -s)" in
  Darwin) os=macos ;;
  *) os=linux ;;
esac
if command -v timeout > /dev/null; then TIMEOUT=(timeout 60); else TIMEOUT=(); fi
# Outside Xcode's build system, swiftc finds Swift Testing on macOS only in the platform's
# frameworks folder; on Linux it is in the toolchain.
TESTING=()
if [ "$os" = macos ] && platform="$(xcrun --show-sdk-platform-path 2> /dev/null)"; then
  TESTING=(-F "$platform/Developer/Library/Frameworks" -Xlinker -rpath -Xlinker "$platform/Developer/Library/Frameworks")
fi

# Writes the program of one Markdown file to stdout and its number of checked blocks to
# the file named by `count`; exits with status 2 on an unknown or unclosed marker.
extract() {
  awk -v os="$os" -v file="$1" -v count="$2" '
    function fail(message) { printf "%s:%d: %s\n", file, NR, message > "/dev/stderr"; failed = 1; exit 2 }
    BEGIN {
      print "import Keel"
      print "#if canImport(Glibc)\nimport func Glibc.exit\n#elseif canImport(Darwin)\nimport func Darwin.exit\n#endif"
      blocks = 0
      stopped = 0
    }
    fence != "" {
      if ($0 ~ "^[ \t]*" fence "[ \t]*$") {
        if (swift) print "#sourceLocation()"
        fence = ""
      } else if (swift) {
        line = $0
        if (substr(line, 1, length(indent)) == indent) line = substr(line, length(indent) + 1)
        if (line ~ /^[ \t]*import[ \t]+Testing[ \t]*$/) testing = 1
        print line
      }
      next
    }
    /^[ \t]*<!--[ \t]*snippet:/ {
      marks = $0
      sub(/^[ \t]*<!--[ \t]*snippet:[ \t]*/, "", marks)
      if (marks !~ /-->[ \t]*$/) fail("a snippet marker must fit on one line")
      sub(/[ \t]*-->[ \t]*$/, "", marks)
      sub(/[ \t]*\(.*\)$/, "", marks)
      pending = marks
      n = split(marks, words, /[ \t]+/)
      for (i = 1; i <= n; i++)
        if (words[i] !~ /^(skip|no-run|linux-only|macos-only)$/) fail("unknown snippet marker \"" words[i] "\"")
      next
    }
    /^[ \t]*(```|~~~)/ {
      match($0, /^[ \t]*/)
      indent = substr($0, 1, RLENGTH)
      rest = substr($0, RLENGTH + 1)
      fence = substr(rest, 1, 3)
      while (substr(rest, length(fence) + 1, 1) == substr(fence, 1, 1)) fence = fence substr(fence, 1, 1)
      language = substr(rest, length(fence) + 1)
      gsub(/^[ \t]+|[ \t]+$/, "", language)
      swift = (language == "swift")
      run = 1
      marks = " " pending " "
      pending = ""
      if (swift) {
        if (marks ~ / skip /) swift = 0
        if (marks ~ / linux-only / && os != "linux") swift = 0
        if (marks ~ / macos-only / && os != "macos") swift = 0
        if (marks ~ / no-run /) run = 0
      }
      if (swift) {
        blocks++
        if (!run && !stopped) {
          # The program is run without arguments, so it stops here; the compiler cannot tell.
          print "guard CommandLine.arguments.count > 1 else { exit(0) }"
          stopped = 1
        }
        printf "#sourceLocation(file: \"%s\", line: %d)\n", file, NR + 1
      }
      next
    }
    /^[ \t]*$/ { next }
    { if (pending != "") fail("a snippet marker must come right before a code block"); pending = "" }
    END {
      if (failed) exit 2
      if (fence != "") { printf "%s: a code block is not closed\n", file > "/dev/stderr"; exit 2 }
      if (pending != "") { printf "%s: a snippet marker is not followed by a code block\n", file > "/dev/stderr"; exit 2 }
      # The same entry point as `swift test`: runs the tests and returns 1 when one fails.
      if (testing) print "exit(await Testing.__swiftPMEntryPoint() as CInt)"
      print blocks > count
    }
  ' "$1"
}

# "1 block", "2 blocks".
plural() { if [ "$1" -eq 1 ]; then echo "$2"; else echo "$2s"; fi; }

status=0
checked=0
total_blocks=0
for file in "${files[@]}"; do
  rm -rf "$WORK/run" "$WORK/compile.log" "$WORK/run.log" && mkdir -p "$WORK/run"
  if ! extract "$file" "$WORK/count" > "$WORK/main.swift" 2> "$WORK/extract.log"; then
    echo "FAIL  $file"
    cat "$WORK/extract.log"
    status=1
    continue
  fi
  blocks="$(cat "$WORK/count")"
  if [ "$blocks" -eq 0 ]; then
    [ "$verbose" = 1 ] && echo "      $file (no Swift blocks)"
    continue
  fi
  checked=$((checked + 1))
  total_blocks=$((total_blocks + blocks))
  [ "$verbose" = 1 ] && cat -n "$WORK/main.swift"
  if swiftc -swift-version 6 -warnings-as-errors -I "$BIN/Modules" "${CSQLITE[@]}" ${TESTING[@]+"${TESTING[@]}"} \
       "$WORK/main.swift" "$BIN/Keel.build/"*.o "$BIN/KeelSQLite.build/"*.o "$BIN/CKeelSQLite.build/"*.o \
       -o "$WORK/program" > "$WORK/compile.log" 2>&1 \
     && (cd "$WORK/run" && HOME="$WORK/run" CFFIXED_USER_HOME="$WORK/run" XDG_DATA_HOME="$WORK/run" TMPDIR="$WORK/run/" \
           SWIFT_BACKTRACE=enable=no ${TIMEOUT[@]+"${TIMEOUT[@]}"} "$WORK/program") > "$WORK/run.log" 2>&1; then
    echo "ok    $file ($blocks Swift $(plural "$blocks" block))"
    [ "$verbose" = 1 ] && cat "$WORK/compile.log" "$WORK/run.log"
  else
    echo "FAIL  $file"
    # The first errors matter most; a trap's message comes before any backtrace.
    cat "$WORK/compile.log" "$WORK/run.log" 2> /dev/null | head -80 || true
    status=1
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "no Swift code blocks found" >&2
  exit 1
fi
if [ "$status" -eq 0 ]; then
  echo "$total_blocks Swift $(plural "$total_blocks" block) in $checked $(plural "$checked" file) compiled and run"
fi
exit $status
