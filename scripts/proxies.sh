#!/usr/bin/env bash
# Fetches Debian's haproxy and nginx for the cluster's routing tests
# (tests/cluster/), without installing them as services: `apt-get download`
# the packages and unpack them with `dpkg-deb -x` into .cache/proxies/ of
# the checkout (git-ignored).  The tests then run the binaries with configs
# of their own on loopback: no service on :80, no root needed to run them.
# Their libraries are ordinary packages (scripts/deps.sh --test installs
# them); a library missing is named here and the script fails.
# Safe to run again: a binary unpacked already is kept.  Prints nothing but
# what it fetched, and the reason when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=.cache/proxies
mkdir -p "$dest/debs" "$dest/root"
for p in haproxy nginx; do
  bin="$dest/root/usr/sbin/$p"
  if [[ ! -x $bin ]]; then
    rm -f "$dest/debs/${p}"_*.deb
    # apt-get download needs the package lists: an apt that was never
    # updated on this machine knows no candidate
    if ! (cd "$dest/debs" && apt-get download -qq "$p" 2>/dev/null); then
      apt-get update -qq
      (cd "$dest/debs" && apt-get download -qq "$p")
    fi
    dpkg-deb -x "$dest/debs/${p}"_*.deb "$dest/root"
    echo "proxies.sh: $bin ($(dpkg-deb -f "$dest/debs/${p}"_*.deb Version))"
  fi
  missing=$(ldd "$bin" | awk '/not found/ {printf "%s%s", sep, $1; sep = " "}')
  if [[ -n $missing ]]; then
    echo "proxies.sh: $bin needs libraries that are not installed: $missing" \
         "(bash scripts/deps.sh --test installs them)" >&2
    exit 1
  fi
done
