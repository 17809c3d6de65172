#!/usr/bin/env bash
# Runs the protocol tests of tafel serve (tests/server/, docs/protocol.md)
# with node's test runner: bash scripts/test-server.sh [--pg] [path/to/tafel]
#
# --pg: the same tests on PostgreSQL.  A throwaway cluster (scripts/pgtmp.sh,
# PostgreSQL 15 from Debian's postgresql-15: no fsync, trust on its unix
# socket and loopback only) is started in a temporary folder on port
# TAFEL_TEST_PG_PORT (default 18400), its conninfo exported as TAFEL_TEST_PG
# (tests/server/helpers.mjs gives each server a fresh database on it), and
# stopped and removed afterwards, whatever the tests did.  The store's C
# tests (tests/test_server_storage.c) run there first, when built.
#
# The tafel binary (default build/tafel) reaches the tests as TAFEL_CLI.
# The WebSocket client comes from npm, pinned in package-lock.json: `npm ci`
# installs it when node_modules is missing or was made from another lock
# file.  Needs node 18 or later and npm.  Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

pg=
if [[ ${1:-} == --pg ]]; then pg=1; shift; fi
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

if [[ $pg ]]; then
    command -v psql >/dev/null || { echo "test-server.sh: psql is not installed (postgresql-client)" >&2; exit 2; }
    pgdir=$(mktemp -d "${TMPDIR:-/tmp}/tafel-pg.XXXXXX")
    port=${TAFEL_TEST_PG_PORT:-18400}
    trap 'bash scripts/pgtmp.sh stop "$pgdir"' EXIT
    # fsync off: no power cut is simulated, and the suite makes many databases
    # and no TCP: the tests reach it by its socket in pgdir, so runs side by side never collide
    PGOPTS="-c fsync=off -c max_connections=200 -c listen_addresses=''" \
        bash scripts/pgtmp.sh start "$pgdir" "$port"
    export TAFEL_TEST_PG="host=$pgdir port=$port user=tafel"
fi

# Explicit files: node 18 and 20 take a folder, node 22 takes globs.
if [[ $pg ]]; then
    # the store's own tests first, on this cluster too, when built beside tafel
    for t in test_server_storage test_store_owner; do
        storage=$(dirname "$tafel")/tests/$t
        if [[ -x $storage ]]; then "$storage"; fi
    done
fi

# scripts/node-suite.sh reprints the failures at the end of the log and runs
# a failing file once more alone (a rerun that passes is reported as FLAKY).
status=0
TAFEL_CLI=$tafel bash scripts/node-suite.sh server tests/server/*.test.mjs || status=$?
exit "$status"
