#!/usr/bin/env bash
# Configures and builds tafel into DIR (default build); extra arguments go
# to cmake.  Usage: scripts/build.sh [DIR] [-DTAFEL_SANITIZE=ON ...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
bash scripts/deps.sh
cmake -S . -B "$dir" "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
