#!/usr/bin/env bash
# Installs the Debian packages tafel needs, when any is missing.
# Sourced or run by play.sh, test.sh and .ci/run; safe to run again.
# With --fuzz also clang and its libFuzzer runtime (scripts/fuzz.sh), which
# playing and the tests do not need.
set -euo pipefail

packages=(gcc make cmake pkg-config libcjson-dev libcmocka-dev python3)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
