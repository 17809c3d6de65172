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
(cd "$dir" && ctest --output-on-failure -j"$(nproc)")
# The server's suite a second time, on PostgreSQL (a throwaway cluster);
# not in the sanitizer run, whose store code is the same.
if [ "$dir" = build ]; then
  bash scripts/test-server.sh --pg "$dir/tafel"
fi
