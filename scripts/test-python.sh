#!/usr/bin/env bash
# test-python.sh -- the Python package's unittest suite (python/tests/):
# bash scripts/test-python.sh path/to/libtafel.so path/to/tafel
# The package is used from the source tree (PYTHONPATH=python), the library
# through TAFEL_LIB, and the C program (for the cross-checks) through
# TAFEL_CLI.
set -euo pipefail
lib=${1:?usage: test-python.sh LIBTAFEL_SO TAFEL_CLI}
cli=${2:?usage: test-python.sh LIBTAFEL_SO TAFEL_CLI}
root="$(cd "$(dirname "$0")/.." && pwd)"
export TAFEL_LIB="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"
export TAFEL_CLI="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 -m unittest discover -s "$root/python/tests" -t "$root/python/tests"
