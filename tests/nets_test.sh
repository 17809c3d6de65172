#!/usr/bin/env bash
# nets_test.sh -- a net from self-play to play, in seconds, for each game:
#   bash tests/nets_test.sh path/to/tafel path/to/libtafel.so
#
# For Cardcassonne, the Catan card game and Carcassonne (its convolutional
# net): `tafel selfplay` plays a few quick games, nets/train.py trains on
# them for one epoch (small layers, one thread) and checks the C forward
# pass against torch itself (its exit status), and records a few held-out
# inputs with torch's outputs (--record); then Python loads the written
# file (tafel.Net), computes the recorded inputs to 1e-5 of torch, and a
# search with the net as its evaluator (Bot("mcts:iters=50").set_net) plays
# a game to the end against random, every move legal.
# Needs numpy and torch in $TAFEL_TORCH_PYTHON (default /usr/bin/python3,
# where Debian's python3-numpy and python3-torch land): without them the
# test says so and is skipped (exit 77, CTest's SKIP_RETURN_CODE).
# The last line is "N passed, M failed"; the exit code is non-zero on failure.
set -euo pipefail

TAFEL=${1:?usage: nets_test.sh path/to/tafel path/to/libtafel.so}
LIB=${2:?usage: nets_test.sh path/to/tafel path/to/libtafel.so}
PYTHON=${TAFEL_TORCH_PYTHON:-/usr/bin/python3}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. "$ROOT/tests/checks.sh"

if ! "$PYTHON" -c 'import numpy, torch' 2>/dev/null; then
    echo "skipped: $PYTHON cannot import numpy and torch (Debian: python3-numpy, python3-torch)"
    exit 77
fi
TAFEL_LIB="$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")"
export TAFEL_LIB
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree

# plays NAME GAME NET RECORD: the net file against its recorded inputs,
# then a game of a search guided by it.
plays() {
    check "$1: the file computes torch's recorded outputs, a search plays with it" 0 \
        "^game over after [0-9]+ moves" -- \
        "$PYTHON" - "$2" "$3" "$4" <<'EOF'
import sys
import numpy as np
import tafel

game = tafel.load(sys.argv[1])
net = tafel.Net(game, sys.argv[2])
record = np.load(sys.argv[3])
inputs, values, logits = record["inputs"], record["values"], record["logits"]
assert len(inputs) >= 2, "too few recorded inputs: %d" % len(inputs)
got_v, got_l = net.forward(inputs)
worst = float(np.abs(got_v - values).max())
assert net.has_policy == (logits.shape[1] > 0)
if net.has_policy:
    worst = max(worst, float(np.abs(got_l - logits).max()))
assert worst <= 1e-5, "tafel.Net and torch differ by %g" % worst
print("recorded inputs: %d, worst %.2g" % (len(inputs), worst))

bot = tafel.Bot("mcts:iters=50", game, seed=3)
bot.set_net(net, batch=8)
state, rng, moves = game.new_state(), tafel.Rng(9), 0
while not state.is_terminal():
    if state.is_chance():
        state.apply(state.sample_chance(rng))
    elif state.current_player() == 0:
        action = bot.choose(state)
        assert action in state.legal_actions(), "move %d: illegal %r" % (moves, action)
        state.apply(action)
        moves += 1
    else:
        state.apply(rng.choice(state.legal_actions()))
assert moves > 3, moves
print("game over after %d moves: scores %s" % (moves, state.scores()))
EOF
}

# each game: its selfplay players and train.py's options (small layers:
# seconds; Carcassonne's net keeps its convolutions, nets/train.py SHAPES)
runs=("cardcassonne|--hidden 16" "catan_cards|--hidden 8" "carcassonne|--hidden 8")
for run in "${runs[@]}"; do
    game=${run%%|*} options=${run#*|} out="$WORK/${run%%|*}"
    check "$game: selfplay" 0 "10 games" -- \
        "$TAFEL" selfplay "$game" --players mcts:iters=20,greedy --games 10 --shard-games 4 \
        --seed 1 --out "$out" --progress 0
    # shellcheck disable=SC2086 # options are words
    check "$game: train.py trains, writes, and the C net is torch's" 0 \
        "differs from torch by" -- \
        "$PYTHON" "$ROOT/nets/train.py" "$game" "$out" --out "$out.tfnet" --epochs 1 \
        --threads 1 --record "$out.npz" $options
    if [[ -f $out.tfnet && -f $out.npz ]]; then
        plays "$game" "$game" "$out.tfnet" "$out.npz"
    else
        fail "$game: the file computes torch's recorded outputs" "train.py wrote no net"
    fi
done
finish
