#!/usr/bin/env bash
# Runs the cluster's tests (tests/cluster/: several tafel serve nodes behind
# HAProxy and nginx, on loopback) with node's test runner:
# bash scripts/test-cluster.sh [path/to/tafel]
#
# The proxies are Debian's, unpacked into .cache/proxies/ by
# scripts/proxies.sh (run first; their libraries come from
# scripts/deps.sh --test).  The tafel binary (default build/tafel) reaches
# the tests as TAFEL_CLI; the WebSocket client is npm's ws, as for
# scripts/test-server.sh.  nodes.test.mjs starts its own throwaway
# PostgreSQL (tests/cluster/harness.mjs; Debian's postgresql-15, skipped
# without it).  Exits non-zero when a test fails or the proxies cannot be
# had.
set -euo pipefail
cd "$(dirname "$0")/.."

tafel=${1:-build/tafel}
[[ $tafel == /* ]] || tafel=$PWD/$tafel
if [[ ! -x $tafel ]]; then
    echo "test-cluster.sh: no tafel binary at $tafel (build it, or give its path)" >&2
    exit 2
fi
command -v node >/dev/null || { echo "test-cluster.sh: node is not installed" >&2; exit 2; }
stamp=node_modules/.tafel-package-lock.json
if [[ ! -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json "$stamp"
fi
bash scripts/proxies.sh
# scripts/node-suite.sh: failures again at the end; a failing file once more alone.
TAFEL_CLI=$tafel exec bash scripts/node-suite.sh cluster tests/cluster/*.test.mjs
