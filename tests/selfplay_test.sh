#!/usr/bin/env bash
# selfplay_test.sh -- `tafel selfplay` end to end:
#   bash tests/selfplay_test.sh path/to/tafel [path/to/mpirun]
#
# For each game, a few games of cheap bots: the shards are byte for byte the
# same with --threads 1 and 2 (and on 2 ranks when mpirun is given), a shard
# deleted, or cut short, is written again the same by --resume, and every
# sample holds (read with Python's struct, docs/selfplay.md's format):
# shares summing to 1 over legal indices only, ascending, and the outcome
# and margin of the record `tafel sim --out` writes for the same seed and
# bots.  Then bad input: clear errors.
# The last line is "N passed, M failed"; the exit code is non-zero on failure.
set -euo pipefail

TAFEL=${1:?usage: selfplay_test.sh path/to/tafel [path/to/mpirun]}
MPIRUN=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# same NAME DIR1 DIR2: the two folders hold the same files, byte for byte.
same() {
    if diff -r "$2" "$3" >"$WORK/out" 2>&1; then ok "$1"; else not_ok "$1"; fi
}

# samples_agree NAME DIR RECORDS: every sample of DIR against the records.
samples_agree() {
    if python3 - "$2" "$3" >"$WORK/out" 2>&1 <<'EOF'
import json, os, struct, sys
folder, records = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(folder, "manifest.json")))
games = [json.loads(line) for line in open(records)]
assert manifest["complete"] and manifest["games"] == len(games), manifest
seen = 0
for entry in manifest["shards"]:
    data = open(os.path.join(folder, entry["file"]), "rb").read()
    head = struct.unpack_from("<8sII4Q6I10Q", data)
    magic, n, pairs, space, mbytes = head[0], head[5], head[6], head[10], head[11]
    off = head[13:]
    assert magic == b"TAFELSP1" and n == entry["samples"] and pairs == entry["pairs"]
    assert head[1] == 2, "version 2"
    assert len(data) == off[9] + 4 * n, "the file ends where its last section does"
    col = lambda k, fmt, count: struct.unpack_from("<%d%s" % (count, fmt), data, off[k])
    game, seat = col(2, "q", n), col(3, "i", n)
    outcome, margin, start = col(4, "f", n), col(5, "f", n), col(6, "q", n + 1)
    index, share = col(7, "i", pairs), col(8, "f", pairs)
    value = col(9, "f", n)
    assert start[0] == 0 and start[n] == pairs
    # the search's estimate: a win chance where mcts decided, -1 where a
    # bot that does not search did (its one move, share 1)
    assert all(v == -1 or 0 <= v <= 1 for v in value), value
    assert any(v >= 0 for v in value) and any(v == -1 for v in value)
    assert all(v >= 0 or start[s + 1] - start[s] == 1 for s, v in enumerate(value))
    for s in range(n):
        mask = data[off[1] + s * mbytes: off[1] + (s + 1) * mbytes]
        legal = {j for j in range(space) if mask[j // 8] >> (j % 8) & 1}
        ids, shares = index[start[s]:start[s + 1]], share[start[s]:start[s + 1]]
        assert ids and list(ids) == sorted(set(ids)), (s, ids)
        assert set(ids) <= legal, (s, set(ids) - legal)
        assert abs(sum(shares) - 1) < 1e-5 and min(shares) > 0, (s, shares)
        r = games[game[s]]
        scores, winners = r["scores"], r["winners"]
        players = len(scores)
        want = 0 if len(winners) == players else (1 if seat[s] in winners else -1)
        best = max(v for k, v in enumerate(scores) if k != seat[s])
        assert outcome[s] == want, (s, outcome[s], want)
        assert margin[s] == scores[seat[s]] - best, (s, margin[s], scores)
    assert entry["first_game"] == (game[0] if n else entry["first_game"])
    seen += n
assert seen == manifest["samples"] and seen > 0
print("samples:", seen)
EOF
    then ok "$1"; else not_ok "$1"; fi
}

for game in "carcassonne" "cardcassonne(players=3)" "catan_cards(max_turns=40)"; do
    case $game in
        cardcassonne*) players="mcts:iters=20,greedy,random" ;;
        *) players="mcts:iters=20,greedy" ;;
    esac
    name=${game%%(*}
    run=(selfplay "$game" --players "$players" --games 3 --shard-games 2 --seed 5
         --progress 0)
    check "$name: selfplay writes its shards" 0 "3 games, [0-9]+ samples in 2 shards" -- \
        "$TAFEL" "${run[@]}" --out "$WORK/$name.1"
    check "$name: and with two threads" 0 "3 games" -- \
        "$TAFEL" "${run[@]}" --out "$WORK/$name.2" --threads 2
    same "$name: the same shards whatever the threads" "$WORK/$name.1" "$WORK/$name.2"
    "$TAFEL" sim "$game" --players "$players" --games 3 --seed 5 --progress 0 \
        --out "$WORK/$name.jsonl" >/dev/null
    samples_agree "$name: shares, legal indices, outcomes and margins of the records" \
        "$WORK/$name.1" "$WORK/$name.jsonl"
    rm "$WORK/$name.2/shard-000001.bin"
    check "$name: --resume plays only the shard missing" 0 "resuming: 1 of 2 shards" -- \
        "$TAFEL" "${run[@]}" --out "$WORK/$name.2" --resume
    same "$name: and writes it again the same" "$WORK/$name.1" "$WORK/$name.2"
    if [[ -n $MPIRUN ]]; then
        check "$name: on two MPI ranks" 0 "3 games" -- timeout 120 "$MPIRUN" \
            --oversubscribe -np 2 "$TAFEL" "${run[@]}" --out "$WORK/$name.mpi"
        same "$name: the same shards on two ranks" "$WORK/$name.1" "$WORK/$name.mpi"
    fi
done

# a cut run: a shard cut short under its own name (not whole), a stray
# temporary file beside a whole one; --resume plays the cut shard again, the
# same, and removes the stray
d=$WORK/cardcassonne.2
truncate -s 1000 "$d/shard-000000.bin"
echo junk >"$d/shard-000001.bin.tmp"
check "a shard cut short is played again by --resume" 0 "resuming: 1 of 2 shards" -- \
    "$TAFEL" selfplay "cardcassonne(players=3)" --players "mcts:iters=20,greedy,random" \
    --games 3 --shard-games 2 --seed 5 --progress 0 --out "$d" --resume
same "and written again the same, the stray removed" "$WORK/cardcassonne.1" "$d"

# the observation tensors, smaller for the card games
check "--kind observation" 0 "2 games" -- "$TAFEL" selfplay catan_cards --players greedy,random \
    --games 2 --kind observation --out "$WORK/obs" --progress 0
if grep -q '"kind":[[:space:]]*"observation"' "$WORK/obs/manifest.json" &&
   grep -q '"tensor_size":[[:space:]]*4896' "$WORK/obs/manifest.json"; then
    ok "--kind observation: the manifest names it and its size"
else
    fail "--kind observation: the manifest names it and its size" "$(cat "$WORK/obs/manifest.json")"
fi

# bad input
base=(selfplay cardcassonne --players greedy,random --games 2 --progress 0)
check "an unknown bot is refused" 2 "unknown bot|bad bot" -- \
    "$TAFEL" selfplay cardcassonne --players greedy,nosuchbot --out "$WORK/x"
check "an external bot is refused" 2 "only built-in bots" -- \
    "$TAFEL" selfplay cardcassonne --players "ext:python3 x.py,greedy" --out "$WORK/x"
check "--out is required" 2 "give GAME, --players and --out" -- \
    "$TAFEL" selfplay cardcassonne --players greedy,random
check "a bad --kind is refused" 2 "observation or information_state" -- \
    "$TAFEL" "${base[@]}" --kind pixels --out "$WORK/x"
touch "$WORK/afile"
check "--out naming a file is refused" 1 "is not a folder" -- \
    "$TAFEL" "${base[@]}" --out "$WORK/afile"
check "--out in a missing folder is refused" 1 "cannot make the folder" -- \
    "$TAFEL" "${base[@]}" --out "$WORK/no/such/dir"
check "a folder of another run is refused" 1 "holds another run: its seed is \"5\"" -- \
    "$TAFEL" selfplay "cardcassonne(players=3)" --players "mcts:iters=20,greedy,random" \
    --games 3 --shard-games 2 --seed 6 --out "$WORK/cardcassonne.1"
check "this run again without --resume is refused" 1 "holds this run already; --resume" -- \
    "$TAFEL" selfplay "cardcassonne(players=3)" --players "mcts:iters=20,greedy,random" \
    --games 3 --shard-games 2 --seed 5 --out "$WORK/cardcassonne.1"
echo '{"something": "else"}' >"$WORK/x.json"
mkdir "$WORK/foreign" && cp "$WORK/x.json" "$WORK/foreign/manifest.json"
check "a foreign manifest.json is refused" 1 "not a manifest of tafel selfplay" -- \
    "$TAFEL" "${base[@]}" --out "$WORK/foreign"

finish
