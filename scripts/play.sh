#!/usr/bin/env bash
# Builds the tafel program (not the tests) and starts playing: by default
# tafel serve on a SQLite file of its own (build/tafel.db), whose address
# to open in a browser it prints.  --terminal plays in the terminal instead,
# by default Carcassonne, you against the computer; more arguments replace
# the defaults:  scripts/play.sh --terminal carcassonne --players human,human,greedy
set -euo pipefail
cd "$(dirname "$0")/.."
log=build/play-build.log
mkdir -p build
echo "Building tafel (a minute the first time; the log is $log)..." >&2
if ! { bash scripts/deps.sh && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release &&
       cmake --build build --target tafel-cli -j"$(nproc)"; } >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "The build failed; the whole log is $log." >&2
  exit 1
fi
if [ "${1:-}" != "--terminal" ]; then
  exec ./build/tafel serve --db build/tafel.db "$@"
fi
shift
if [ $# -eq 0 ]; then
  set -- carcassonne --players human,greedy
fi
exec ./build/tafel play "$@"
