#!/usr/bin/env bash
# The cluster's soak (issue 36): N tables of a person against a bot played
# through HAProxy on three tafel serve nodes on one throwaway PostgreSQL,
# one node killed with kill -9 every minute (round robin) and started
# again, for --minutes M; then the moves acknowledged, those missing or
# duplicated in the store (0, or the exit status is 1), the time until a
# dead node's tables all played again (median, max) and ack p50/p99.
#   bash scripts/soak-cluster.sh [--tafel PATH] [--tables 1000] [--minutes 10] [...]
#   bash scripts/soak-cluster.sh --help     (every option: bench/soak-cluster.mjs)
# Needs what scripts/test-cluster.sh needs (PostgreSQL 15, psql, HAProxy:
# scripts/proxies.sh fetches it); the tafel binary defaults to build/tafel.
set -euo pipefail
cd "$(dirname "$0")/.."

tafel=build/tafel
args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --tafel) tafel=$2; shift 2 ;;
        --tafel=*) tafel=${1#--tafel=}; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
for a in "${args[@]}"; do
    if [[ $a == --help || $a == -h ]]; then
        echo "usage: bash scripts/soak-cluster.sh [--tafel PATH] [options of bench/soak-cluster.mjs]"
        exec node bench/soak-cluster.mjs --help
    fi
done
[[ $tafel == /* ]] || tafel=$PWD/$tafel
if [[ ! -x $tafel ]]; then
    echo "soak-cluster.sh: no tafel binary at $tafel (build it, or give --tafel PATH)" >&2
    exit 2
fi
command -v node >/dev/null || { echo "soak-cluster.sh: node is not installed" >&2; exit 2; }
bash scripts/proxies.sh
TAFEL_CLI=$tafel exec node bench/soak-cluster.mjs "${args[@]}"
