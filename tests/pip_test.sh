#!/usr/bin/env bash
# tests/pip_test.sh LIBTAFEL_SO SOURCE_DIR -- pip install ./python, as a
# researcher does it on Debian (README, "Use from Python"):
#  - a venv of Debian's own python (/usr/bin/python3, python3-venv) with
#    --system-site-packages, so that Debian's setuptools and wheel (and
#    numpy, if installed) are there without a package index;
#  - pip install --no-build-isolation --no-index of a copy of python/ (the
#    source tree stays clean), with TAFEL_PREBUILT_LIB=LIBTAFEL_SO so that
#    the test does not build the library again; with --from-source instead
#    of LIBTAFEL_SO, of SOURCE_DIR/python itself, which builds libtafel.so
#    with cmake (in python/build/, some 15 s of a quiet core more);
#  - the wheel is platform-tagged, the package carries its libtafel.so, and
#    from a folder outside the source tree, with neither TAFEL_LIB nor
#    PYTHONPATH, python finds both there and plays a whole game: README's
#    example, which must print the scores and the winners.
set -euo pipefail

usage="usage: pip_test.sh LIBTAFEL_SO|--from-source SOURCE_DIR"
lib=
if [ "${1:?$usage}" != --from-source ]; then
    lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fi
src=$(cd "${2:?$usage}" && pwd)
python=/usr/bin/python3
fail() { echo "pip_test: $*" >&2; exit 1; }
[ -x "$python" ] || fail "no Debian python ($python)"
"$python" -c 'import venv, setuptools, wheel' 2>/dev/null ||
    fail "Debian's python lacks venv, setuptools or wheel (python3-venv, python3-setuptools, python3-wheel: scripts/deps.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# python/ and the header it takes its version from, without build leftovers.
mkdir -p "$tmp/tree/python"
cp -r "$src/include" "$tmp/tree/"
cp -r "$src/python/pyproject.toml" "$src/python/setup.py" "$src/python/README.md" \
      "$src/python/tafel" "$tmp/tree/python/"
rm -rf "$tmp/tree/python/tafel/__pycache__" "$tmp/tree/python/tafel/libtafel.so"

# Debian's pip (python3-pip) from the system site-packages: a venv without
# its own pip is made in a fraction of the time.
"$python" -m venv --system-site-packages --without-pip "$tmp/venv"
venv_python=$tmp/venv/bin/python
"$venv_python" -m pip --version >/dev/null 2>&1 || fail "no pip for $python (python3-pip)"
if [ -n "$lib" ]; then
    (cd "$tmp/tree" && env -u TAFEL_LIB -u PYTHONPATH TAFEL_PREBUILT_LIB="$lib" \
        "$venv_python" -m pip install --quiet --no-build-isolation --no-index ./python)
else
    (cd "$src" && env -u TAFEL_LIB -u PYTHONPATH -u TAFEL_PREBUILT_LIB \
        "$venv_python" -m pip install --quiet --no-build-isolation --no-index ./python)
fi || fail "pip install ./python failed"

site=$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
wheel_file=$(ls "$site"/tafel-*.dist-info/WHEEL)
tag=$(sed -n 's/^Tag: //p' "$wheel_file")
case "$tag" in
    *-none-any) fail "the wheel is tagged $tag: it carries a .so" ;;
    cp3*-linux_*) echo "wheel tag: $tag" ;;
    *) fail "unexpected wheel tag $tag" ;;
esac
if [ -n "$lib" ]; then
    cmp -s "$lib" "$site/tafel/libtafel.so" || fail "the package's libtafel.so is not the library given"
fi
readelf -d "$site/tafel/libtafel.so" | grep -q 'SONAME.*libtafel.so.0' || fail "no libtafel.so in the package"

# From elsewhere, the package and its library are the venv's.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
env -u TAFEL_LIB -u PYTHONPATH "$venv_python" - "$site" <<'EOF'
import os, sys
site = os.path.realpath(sys.argv[1])
import tafel
from tafel import _lib
assert os.path.realpath(tafel.__file__).startswith(site + os.sep), tafel.__file__
assert os.path.realpath(_lib.lib._name) == os.path.join(site, "tafel", "libtafel.so"), _lib.lib._name
EOF

# A whole game: the README's example ("Use from Python"), as written there.
awk '/^## Use from Python/ {on = 1} on && /^```python/ {code = 1; next}
     code && /^```/ {exit} code' "$src/README.md" >example.py
[ -s example.py ] || fail "no python example under README's \"Use from Python\""
out=$(env -u TAFEL_LIB -u PYTHONPATH "$venv_python" example.py) || fail "README's example failed"
[[ "$out" =~ ^\[[0-9.]+,\ [0-9.]+\]\ \[[01](,\ 1)?\]$ ]] || fail "README's example printed '$out'"
echo "README example: $out"
echo "pip_test: ok"
