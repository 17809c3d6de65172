#!/usr/bin/env bash
# Builds tafel and starts a game: by default Carcassonne, you against the
# computer.  Any arguments replace the defaults: scripts/play.sh carcassonne
# --players human,human,greedy
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh build >&2
if [ $# -eq 0 ]; then
  set -- carcassonne --players human,greedy
fi
exec ./build/tafel play "$@"
