#!/usr/bin/env bash
# sim_report_test.sh -- what `tafel sim` reports for scripts: --json (one
# object on stdout, the fields docs/cluster.md documents), intervals that
# are finite or unbounded in words (never inf), and --out records whose
# "scores" and "winners" are their replay's.
#   bash tests/sim_report_test.sh path/to/tafel
set -euo pipefail

TAFEL=${1:?usage: sim_report_test.sh path/to/tafel}
DOC="$(dirname "${BASH_SOURCE[0]}")/../docs/cluster.md"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
unset LC_ALL LC_MESSAGES
export LANG=C.UTF-8
PY=python3

# json_check NAME FILE PYTHON: FILE (stdout of a --json run) is one JSON
# object r, and the PYTHON lines (asserts on r and doc, the documented
# top-level fields) hold.
json_check() {
    local name=$1 file=$2 code=$3
    if "$PY" - "$file" "$DOC" >"$WORK/out" 2>&1 <<EOF2
import json, re, sys
r = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
table = text[text.index("| field | what it holds |"):]
table = table[:table.index("\n\n")]
doc = re.findall(r"^\| \`(\w+)\` \|", table, re.M)
$code
EOF2
    then ok "$name"; else not_ok "$name"; fi
}

# --json: one object with every documented field and no other, on stdout alone
"$TAFEL" sim --players greedy,random --games 6 --seed 9 --json >"$WORK/plain.json" 2>"$WORK/err"
json_check "sim --json prints one object with the documented fields" "$WORK/plain.json" '
assert sorted(r) == sorted(doc), (sorted(r), sorted(doc))
assert r["seed"] == "9" and r["games"] == 6 and r["unit"] == "game" and r["units"] == 6
assert [b["spec"] for b in r["bots"]] == ["greedy", "random"]
for b in r["bots"]:
    assert sorted(b) == ["bot", "draws", "forfeits", "losses", "score", "spec", "think",
                         "win_rate", "wins"], b
    assert b["wins"] + b["draws"] + b["losses"] == 6
    t = b["think"]
    assert sorted(t) == ["cpu_ms_per_move", "decisions", "ms_per_move"], t
    assert t["decisions"] > 6 * 20 and t["ms_per_move"] >= 0 and t["cpu_ms_per_move"] >= 0, t
    assert sorted(b["win_rate"]) == ["effective_games", "hi", "lo", "value"]
    assert sorted(b["score"]) == ["max", "mean", "min", "sd"]
greedy, rand = (b["think"]["cpu_ms_per_move"] for b in r["bots"])
assert greedy > rand, "greedy weighs every placement; random reads the legal actions"
assert r["sprt"] is None and r["forfeits"] == {"total": 0, "first": None}'

# the same numbers as the text report
"$TAFEL" sim --players greedy,random --games 6 --seed 9 >"$WORK/plain.txt"
json_check "sim --json and the table agree" "$WORK/plain.json" "
lines = [l for l in open('$WORK/plain.txt') if re.match(r'^[12] ', l)]
assert len(lines) == 4, lines
rows, think = lines[:2], lines[2:]
for b, row in zip(r['bots'], rows):
    m = re.search(r'([0-9.]+)%   \\[ *([0-9.]+)%, *([0-9.]+)%\\] +([0-9.]+)$', row)
    w = b['win_rate']
    want = ['%.1f' % x for x in (100 * w['value'], 100 * w['lo'], 100 * w['hi'], b['score']['mean'])]
    assert m and list(m.groups()) == want, (row, want)
for b, row in zip(r['bots'], think):
    want = '%.2f %d' % (b['think']['cpu_ms_per_move'], b['think']['decisions'])
    assert ' '.join(row.split()[-2:]) == want, (row, want)"

# --paired --sprt: the unit is the deal, the verdict is given
"$TAFEL" sim cardcassonne --players greedy,random --games 1000 --sprt 0,50 --paired --seed 3 \
    --json >"$WORK/sprt.json" 2>/dev/null
json_check "sim --json --paired --sprt: deals and the verdict" "$WORK/sprt.json" '
assert r["paired"] and r["unit"] == "deal" and r["games_per_unit"] == 2
assert r["units"] * 2 == r["games"] < 1000
s = r["sprt"]
assert s["verdict"] == "H1" and s["llr"] >= s["upper"] and s["games"] == r["games"], s
for b in r["bots"]:
    assert r["units"] <= b["win_rate"]["effective_games"] <= r["games"], b'

# A lopsided match: greedy wins every game.  The table says "unbounded" in
# words and no "inf"; the JSON gives null and a reason on that side only.
lopsided=(sim carcassonne --players random,greedy --games 40 --paired --seed 2)
check "a lopsided match is unbounded below, in words" 0 \
    "Elo difference 1-2 +unbounded +\[unbounded below, -[0-9.]+\]  bot 1 won no deal" \
    -- "$TAFEL" "${lopsided[@]}"
if grep -qi "inf\|nan" "$WORK/out"; then not_ok "a lopsided match prints no inf"
else ok "a lopsided match prints no inf"; fi
"$TAFEL" "${lopsided[@]}" --json >"$WORK/lopsided.json"
json_check "a lopsided match: null and a reason in JSON" "$WORK/lopsided.json" '
assert "inf" not in open(sys.argv[1]).read().lower()
e = r["comparison"]["elo"]
assert e["value"] is None and e["lo"] is None and e["hi"] < 0, e
assert e["reason"] == "bot 1 won no deal: the Elo difference is unbounded below", e
w = r["bots"][0]["win_rate"]
assert w["value"] == 0 and w["lo"] == 0 and 0 < w["hi"] < 1, w
assert r["bots"][1]["wins"] == 40'

# --resume: the JSON counts the games read back
"$TAFEL" sim cardcassonne --players greedy,random --games 10 --seed 5 --out "$WORK/g.jsonl" \
    --json >"$WORK/full.json"
head -n 4 "$WORK/g.jsonl" >"$WORK/cut.jsonl"
"$TAFEL" sim cardcassonne --players greedy,random --games 10 --seed 5 --out "$WORK/cut.jsonl" \
    --resume --json >"$WORK/resumed.json" 2>/dev/null
json_check "sim --json --resume: the same report, 4 games read back" "$WORK/resumed.json" "
full = json.load(open('$WORK/full.json'))
assert r['resumed'] == 4 and full['resumed'] == 0
for k in ('seconds', 'games_per_second', 'resumed'): del r[k], full[k]
# only the games played take time: the 4 read back add no decisions
for b, f in zip(r['bots'], full['bots']):
    assert 0 < b['think']['decisions'] < f['think']['decisions'], (b, f)
    del b['think'], f['think']
assert r == full"

# Records carry the result of their replay; older records (without it)
# still replay; a wrong result is refused by replay and --resume.
"$TAFEL" sim cardcassonne --players greedy,random --games 6 --seed 8 --out "$WORK/r.jsonl" \
    >/dev/null
n=0
while IFS= read -r line; do
    printf '%s\n' "$line" >"$WORK/one.json"
    "$TAFEL" replay "$WORK/one.json" --json >"$WORK/replay.json" || break
    "$PY" -c '
import json, sys
rec, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert rep["terminal"] and rec["scores"] == rep["scores"] and rec["winners"] == rep["winners"]
assert isinstance(rec["seed"], str)' "$WORK/one.json" "$WORK/replay.json" || break
    n=$((n + 1))
done <"$WORK/r.jsonl"
[[ $n -eq 6 ]] && ok "sim --out records carry the scores and winners of their replay" ||
    fail "sim --out records carry the scores and winners of their replay" "record $n differs"
head -n 1 "$WORK/r.jsonl" | "$PY" -c '
import json, sys
r = json.loads(sys.stdin.readline())
old = {k: r[k] for k in ("game", "players", "seed", "actions")}
print(json.dumps(old))
r["scores"][0] += 1
open(sys.argv[1], "w").write(json.dumps(r) + "\n")
' "$WORK/wrong.json" >"$WORK/old.json"
check "a record without a result still replays" 0 "the game is over" \
    -- "$TAFEL" replay "$WORK/old.json"
check "replay refuses a record whose scores are not its replay's" 1 \
    "the record's result is not its replay's: its \"scores\" give seat 0 [0-9]+, its replay [0-9]+" \
    -- "$TAFEL" replay "$WORK/wrong.json"
cp "$WORK/wrong.json" "$WORK/wrong.jsonl"
check "sim --resume refuses a record whose scores are not its replay's" 1 \
    "line 1 cannot be game 0 of this run: its \"scores\" give seat 0" \
    -- "$TAFEL" sim cardcassonne --players greedy,random --games 6 --seed 8 \
    --out "$WORK/wrong.jsonl" --resume

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
