#!/usr/bin/env bash
# test-python.sh -- the Python package's unittest suite (python/tests/):
# bash scripts/test-python.sh path/to/libtafel.so path/to/tafel
# The package is used from the source tree (PYTHONPATH=python), the library
# through TAFEL_LIB, and the C program (for the cross-checks) through
# TAFEL_CLI.  The suite runs with every distinct interpreter of: python3
# on PATH, /usr/bin/python3 (Debian's, where python3-numpy and python3-torch
# land) and $TAFEL_PYTHONS (more, space-separated), so that both the numpy
# path and the memoryview path are tested; each run says which it was.
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
seen=" "
for python in python3 /usr/bin/python3 ${TAFEL_PYTHONS:-}; do
    path=$(command -v "$python" 2>/dev/null) || continue
    real=$("$path" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
    case "$seen" in *" $real "*) continue ;; esac
    seen="$seen$real "
    "$path" -c 'import sys
try:
    import numpy; n = "numpy " + numpy.__version__
except ImportError:
    n = "no numpy: memoryviews"
try:
    import torch; t = "torch " + torch.__version__
except ImportError:
    t = "no torch"
print("== %s (Python %s): %s, %s" % (sys.executable, sys.version.split()[0], n, t))'
    "$path" -m unittest discover -s "$root/python/tests" -t "$root/python/tests"
done
