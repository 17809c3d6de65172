#!/usr/bin/env bash
# Builds tafel and runs every test, then the server's tests again on
# PostgreSQL.  With --sanitize, builds a separate AddressSanitizer +
# UndefinedBehaviorSanitizer tree and runs the suite there (SQLite only).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DTAFEL_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
bash scripts/deps.sh --test
bash scripts/build.sh "$dir" "${args[@]}"
# The node suites (server, page, cluster) run a failing file once more alone
# and pass when it passes (scripts/node-suite.sh); each such test is written
# here and said again at the end, so a flaky test is seen, not hidden.
export TAFEL_FLAKY_LOG=$PWD/$dir/flaky.log
: > "$TAFEL_FLAKY_LOG"
say_flaky() {
  if [ -s "$TAFEL_FLAKY_LOG" ]; then
    echo "test.sh: tests that failed once and passed alone ($TAFEL_FLAKY_LOG):"
    cat "$TAFEL_FLAKY_LOG"
  fi
}
trap say_flaky EXIT
(cd "$dir" && ctest --output-on-failure -j"$(nproc)")
# The server's suite a second time, on PostgreSQL (a throwaway cluster);
# not in the sanitizer run, whose store code is the same.
if [ "$dir" = build ]; then
  bash scripts/test-server.sh --pg "$dir/tafel"
fi
