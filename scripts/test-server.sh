#!/usr/bin/env bash
# Runs the protocol tests of tafel serve (tests/server/, docs/protocol.md)
# with node's test runner: bash scripts/test-server.sh [path/to/tafel]
#
# The tafel binary (default build/tafel) reaches the tests as TAFEL_CLI.
# The WebSocket client comes from npm, pinned in package-lock.json: `npm ci`
# installs it when node_modules is missing or was made from another lock
# file.  Needs node 18 or later and npm.  Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

tafel=${1:-build/tafel}
[[ $tafel == /* ]] || tafel=$PWD/$tafel
if [[ ! -x $tafel ]]; then
    echo "test-server.sh: no tafel binary at $tafel (build it, or give its path)" >&2
    exit 2
fi
for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "test-server.sh: $tool is not installed" >&2; exit 2; }
done
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 18)); then
    echo "test-server.sh: node $(node --version) is too old; the tests need 18 or later" >&2
    exit 2
fi

# node_modules is fresh when it was installed from this very lock file.
stamp=node_modules/.tafel-package-lock.json
if [[ ! -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json "$stamp"
fi

# Explicit files: node 18 and 20 take a folder, node 22 takes globs.
TAFEL_CLI=$tafel exec node --test tests/server/*.test.mjs
