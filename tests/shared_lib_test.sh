#!/usr/bin/env bash
# shared_lib_test.sh -- libtafel.so, the library for other languages:
# bash tests/shared_lib_test.sh path/to/libtafel.so path/to/include/tafel.h
#
# It exports exactly the functions tafel.h declares TAFEL_API (nothing of
# the engines' insides), and it works when loaded alone: Python's ctypes
# (the way the Python package loads it) plays a game to its end with it.
set -euo pipefail
lib=${1:?usage: shared_lib_test.sh LIBTAFEL_SO TAFEL_H}
header=${2:?usage: shared_lib_test.sh LIBTAFEL_SO TAFEL_H}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the declared names: the identifier before the "(" of each TAFEL_API declaration
grep -v '^#' "$header" | tr '\n' ' ' | grep -o 'TAFEL_API [^;{]*(' | sed -E 's/\($//; s/.*[ *]//' |
    sort -u >"$work/declared"
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$work/exported"
if ! diff "$work/declared" "$work/exported" >"$work/diff"; then
    echo "FAIL libtafel.so exports other than tafel.h declares (< declared only, > exported only):"
    cat "$work/diff"
    exit 1
fi
echo "ok   libtafel.so exports exactly the $(wc -l <"$work/declared") functions tafel.h declares"

python3 - "$lib" <<'PY'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.tafel_game_load.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.tafel_state_new.restype = ctypes.c_void_p
lib.tafel_state_new.argtypes = [ctypes.c_void_p]
lib.tafel_state_current.argtypes = [ctypes.c_void_p]
lib.tafel_state_play_random.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64),
                                        ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_void_p]
lib.tafel_rng_seed.restype = ctypes.c_uint64
lib.tafel_state_free.argtypes = [ctypes.c_void_p]
lib.tafel_game_free.argtypes = [ctypes.c_void_p]
game = ctypes.c_void_p()
assert lib.tafel_game_load(b"carcassonne(players=3)", ctypes.byref(game), None) == 0
state = lib.tafel_state_new(game)
rng = ctypes.c_uint64(lib.tafel_rng_seed(7))
scratch = (ctypes.c_int * 4096)()
steps = 0
while lib.tafel_state_current(state) != -2:  # TAFEL_TERMINAL
    assert lib.tafel_state_play_random(state, ctypes.byref(rng), scratch, 4096, None) == 0
    steps += 1
assert 150 < steps < 400, steps
lib.tafel_state_free(state)
lib.tafel_game_free(game)
print(f"ok   loaded by ctypes, a random game of carcassonne(players=3) ends after {steps} actions")
PY
