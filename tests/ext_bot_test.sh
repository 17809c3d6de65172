#!/usr/bin/env bash
# ext_bot_test.sh -- external bots ("ext:COMMAND" seats) end to end:
#     bash tests/ext_bot_test.sh path/to/tafel
#
# The reference bot (bots/example.py) plays whole matches, deterministically;
# every misbehaviour of tests/ext/misbehave.py forfeits its games, in bounded
# time, with the reason in the records, and leaves no process behind; bad
# specs and programs that do not greet are usage errors; tafel play seats a
# program; and a spy bot shows what a program is told (its own seat's view:
# no other seat's hidden cards).  Needs python3.
#
# Each check prints "ok NAME" or "FAIL NAME" with what came out; the last
# line is "N passed, M failed"; the exit code is non-zero on failure.
set -euo pipefail

TAFEL=${1:?usage: ext_bot_test.sh path/to/tafel}
TAFEL=$(cd "$(dirname "$TAFEL")" && pwd)/$(basename "$TAFEL")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The interpreter itself, not a wrapper (a pyenv shim costs 100 ms a start).
PY=$(python3 -c 'import sys; print(sys.executable)')
WORK=$(mktemp -d)
MARK="TAFEL_EXT_TEST=$WORK" # in the environment of every program tafel starts here

# The processes that carry the mark: what tafel started and left behind.
marked() {
    { grep -lzxF "$MARK" /proc/[0-9]*/environ 2>/dev/null || true; } | cut -d/ -f3
}

cleanup() {
    local pids
    pids=$(marked)
    [[ -z $pids ]] || kill -9 $pids 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# tafel with the mark in its environment, so that its programs inherit it;
# nothing on its standard input (tafel play: no person); never longer than a
# minute.
t() { env "$MARK" timeout 60 "$TAFEL" "$@" </dev/null; }

# faster NAME SECONDS: the last check took less than SECONDS.
faster() {
    if awk -v a="$took" -v b="$2" 'BEGIN { exit !(a < b) }'; then
        ok "$1 (${took} s)"
    else
        fail "$1" "took $took s, expected under $2 s"
    fi
}

# no_leftovers NAME: no process tafel started is still there (a second
# for SIGKILL to land).
no_leftovers() {
    local pids
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        pids=$(marked)
        [[ -n $pids ]] || break
        sleep 0.1
    done
    if [[ -z $pids ]] && ! pgrep -f "$WORK/" >/dev/null; then
        ok "$1"
    else
        {
            echo "left behind:"
            ps -o pid,pgid,args -p "$(echo $pids $(pgrep -f "$WORK/") | tr ' ' ,)" || true
        } >"$WORK/out"
        not_ok "$1"
        kill -9 $pids $(pgrep -f "$WORK/") 2>/dev/null || true
    fi
}

# split FILE: the records of a JSON-lines file, one file each: FILE.0, ...
split_records() {
    "$PY" - "$1" <<'EOF'
import sys
for i, line in enumerate(open(sys.argv[1])):
    open("%s.%d" % (sys.argv[1], i), "w").write(line)
EOF
}

# forfeits FILE: each record's forfeit reason, one a line ("-" for none).
forfeits() {
    "$PY" - "$1" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    f = json.loads(line).get("forfeit")
    print(f["reason"] if f else "-")
EOF
}

# replays_to_end NAME FILE...: each record replays with --json to a
# terminal position, without a forfeit.
replays_to_end() {
    local name=$1 file bad=0
    shift
    : >"$WORK/out"
    for file in "$@"; do
        if ! "$TAFEL" replay --json "$file" >"$WORK/replay" 2>&1 ||
            ! grep -q '"terminal":true' "$WORK/replay" || grep -q '"forfeit"' "$WORK/replay"; then
            { echo "$file:"; cat "$WORK/replay"; } >>"$WORK/out"
            bad=1
        fi
    done
    if [[ $bad -eq 0 && $# -gt 0 ]]; then ok "$name ($# records)"; else not_ok "$name"; fi
}

EXAMPLE="ext:$PY $ROOT/bots/example.py"
cp "$ROOT/tests/ext/misbehave.py" "$WORK/misbehave.py" # a path of its own
MISBEHAVE="$PY $WORK/misbehave.py"

# --- 1. The reference bot against random, in each game -----------------------
for game in carcassonne cardcassonne catan_cards; do
    run() { t sim "$game" --players "$EXAMPLE,ms=5000",random --games 3 --seed 5 "$@"; }
    check "$game: example.py plays a match" 0 "mean game length" \
        -- run --out "$WORK/$game.a.jsonl"
    if grep -q forfeit "$WORK/out" "$WORK/$game.a.jsonl"; then
        fail "$game: example.py forfeits nothing" "$(grep forfeit "$WORK/out" "$WORK/$game.a.jsonl")"
    else
        ok "$game: example.py forfeits nothing"
    fi
    [[ $(wc -l <"$WORK/$game.a.jsonl") -eq 3 ]] && ok "$game: one record a game" ||
        fail "$game: one record a game" "$(wc -l <"$WORK/$game.a.jsonl") records"
    split_records "$WORK/$game.a.jsonl"
    replays_to_end "$game: the records replay to the end" "$WORK/$game.a.jsonl".[0-9]*
    run --out "$WORK/$game.b.jsonl" >/dev/null 2>&1 || true
    cmp -s "$WORK/$game.a.jsonl" "$WORK/$game.b.jsonl" &&
        ok "$game: the same match twice gives the same records" ||
        fail "$game: the same match twice gives the same records" "records differ"
    run --out "$WORK/$game.c.jsonl" --threads 2 >/dev/null 2>&1 || true
    cmp -s "$WORK/$game.a.jsonl" "$WORK/$game.c.jsonl" &&
        ok "$game: --threads 2 gives the records of --threads 1" ||
        fail "$game: --threads 2 gives the records of --threads 1" "records differ"
done
no_leftovers "example.py: no process left"

# --- 2. Every misbehaviour forfeits, in bounded time, and leaves nothing ------
# The reason each mode's records must give (grep -E).  spam: the line it
# writes out of turn may reach tafel before or after the turn is asked
# (nothing in an answer says which turn it is for), so the reason is "not
# its turn" or an illegal action; twice is the deterministic case.
declare -A reasons=(
    [crash]="exited with status 3 "
    [signal]="status 139 \(.*signal 11\)|killed by signal 11"
    [hang]="no answer within 300 ms"
    [late]="no answer within 300 ms"
    [garbage]="answered garbage .*e4 e5"
    [wrongtype]="answered garbage .*\"move\""
    [noaction]="without an \"action\""
    [illegal]="illegal action: 'pass 99 and win'"
    [deaf]="no answer within 300 ms"
    [spam]="(not its turn|illegal action): '.*I was not asked"
    [twice]="not its turn"
    [flood]="longer than 65536 bytes"
    [close]="no answer within 300 ms"
    [orphan]="no answer within 300 ms"
)
for mode in crash signal hang late garbage wrongtype noaction illegal deaf spam twice flood \
    close orphan; do
    check "$mode: forfeits both games" 0 "forfeited 2 games" \
        -- t sim cardcassonne --players "ext:$MISBEHAVE $mode,ms=300",random --games 2 \
        --out "$WORK/$mode.jsonl"
    faster "$mode: in bounded time" 15
    forfeits "$WORK/$mode.jsonl" >"$WORK/out" 2>&1 || true
    if [[ $(grep -cE -- "${reasons[$mode]}" "$WORK/out") -eq 2 ]]; then
        ok "$mode: both records say why: $(head -1 "$WORK/out" | cut -c1-70)"
    else
        echo "     expected /${reasons[$mode]}/ in both" >>"$WORK/out"
        not_ok "$mode: both records say why"
    fi
    no_leftovers "$mode: no process left"
done

# --- 3. A program that misbehaves sometimes: each game has a fresh one ------
check "sometimes: a match goes on after forfeits" 0 "forfeited [0-9]+ games" \
    -- t sim cardcassonne --players "ext:$MISBEHAVE crash sometimes,ms=300",random --games 10 \
    --seed 3 --out "$WORK/sometimes.jsonl"
k=$(grep -oE "forfeited [0-9]+ games" "$WORK/out" | grep -oE "[0-9]+" || echo 0)
n=$(forfeits "$WORK/sometimes.jsonl" | grep -c "exited with status 3" || true)
if ((k > 0 && k < 10 && n == k)); then
    ok "sometimes: $k of 10 games forfeited, as the records say"
else
    fail "sometimes: some games forfeited, not all" "sim says $k, the records $n"
fi
split_records "$WORK/sometimes.jsonl"
clean=()
for file in "$WORK"/sometimes.jsonl.[0-9]*; do
    grep -q '"forfeit"' "$file" || clean+=("$file")
done
replays_to_end "sometimes: the other games replay to the end" "${clean[@]}"
no_leftovers "sometimes: no process left"

# Three players: the seat that forfeits loses, the other two share the win
# (a shared win counts 1/2 to each in sim's win rates).
check "three players: the forfeiting bot wins nothing" 0     "forfeited 3 games"     -- t sim "cardcassonne(players=3)" --players "ext:$MISBEHAVE illegal,ms=300",random,greedy     --games 3 --out "$WORK/three.jsonl"
if grep -qE "^1 +ext:.* 0\.0%" "$WORK/out" &&
    [[ $(grep -cE "^[23] +(random|greedy) +50\.0%" "$WORK/out") -eq 2 ]]; then
    ok "three players: the other two share every win"
else
    fail "three players: the other two share every win" "$(cat "$WORK/out")"
fi
split_records "$WORK/three.jsonl"
check "three players: replay names two winners" 0 '"winners":\[[0-9],[0-9]\],"forfeit"' \
    -- "$TAFEL" replay --json "$WORK/three.jsonl.0"
no_leftovers "three players: no process left"

# --- 4. Programs that do not greet are refused at the start ---------------------
check "badhello: refused" 2 "speaks another protocol" \
    -- t sim cardcassonne --players "ext:$MISBEHAVE badhello",random --games 2
faster "badhello: at once" 5
check "mute: refused" 2 "did not greet: no hello within 10000 ms" \
    -- t sim cardcassonne --players "ext:$MISBEHAVE mute",random --games 2
faster "mute: after the hello time" 15
no_leftovers "mute, badhello: no process left"

# --- 5. Bad specs ---------------------------------------------------------------
check "ext: without a command" 2 "give the command that runs the bot" \
    -- t sim cardcassonne --players "ext:",random --games 1
check "ms=0" 2 "ms= must be a number of milliseconds" \
    -- t sim cardcassonne --players "ext:x,ms=0",random --games 1
check "ms=abc" 2 "ms= must be a number of milliseconds" \
    -- t sim cardcassonne --players "ext:x,ms=abc",random --games 1
check "a program that does not exist" 2 "did not greet: exited with status 127" \
    -- t sim cardcassonne --players "ext:/nonexistent/bot",random --games 1
check "play: a bad spec" 2 "give the command" \
    -- t play cardcassonne --players "ext:",greedy
check "play: a program that does not greet" 2 "speaks another protocol" \
    -- t play cardcassonne --players "ext:$MISBEHAVE badhello",greedy

# --- 6. tafel play with a program and a bot ------------------------------------
check "play: example.py against greedy to the end" 0 "Winner" \
    -- t play cardcassonne --players "$EXAMPLE",greedy --seed 4 --record "$WORK/play.json"
replays_to_end "play: its record replays to the end" "$WORK/play.json"
check "play: an illegal answer forfeits" 0 "forfeits the game: answered an illegal action" \
    -- t play cardcassonne --players "ext:$MISBEHAVE illegal,ms=300",greedy --seed 4 \
    --record "$WORK/forfeit.json"
grep -q "lost by forfeit; Blue wins" "$WORK/out" && ok "play: the other seat wins" ||
    not_ok "play: the other seat wins"
grep -q '"forfeit":{"seat":0,"reason":"answered an illegal action' "$WORK/forfeit.json" &&
    ok "play: the record has the forfeit" ||
    fail "play: the record has the forfeit" "$(cat "$WORK/forfeit.json")"
check "replay: the game ended by forfeit" 0 "The game ended by forfeit: Red .* illegal action" \
    -- "$TAFEL" replay "$WORK/forfeit.json"
check "replay --json: the forfeit and the winner" 0 \
    '"terminal":false.*"winners":\[1\],"forfeit":\{"seat":0,"reason":"answered an illegal' \
    -- "$TAFEL" replay --json "$WORK/forfeit.json"
sed 's/"forfeit":{"seat":0/"forfeit":{"seat":2/' "$WORK/forfeit.json" >"$WORK/seat2.json"
check "replay: a forfeit by a seat the game does not have" 1 \
    '"forfeit" seat 2 is not a seat of this 2-player game' \
    -- "$TAFEL" replay --json "$WORK/seat2.json"
no_leftovers "play: no process left"

# --- 7. What a program is told ------------------------------------------------
# The spy logs every message and plays the first legal action.
cat >"$WORK/spy.py" <<'EOF'
import json, sys
log = open(sys.argv[1], "w")
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "spy", "version": "1", "protocol": 1}), flush=True)
    elif message["type"] == "turn":
        print(json.dumps({"type": "action", "action": message["legal"][0]}), flush=True)
    elif message["type"] == "quit":
        break
EOF
# Game 1 of a sim seats the first bot at seat 1 (game 0 at seat 0).
for seat in 0 1; do
    check "spy at seat $seat plays catan_cards" 0 "mean game length" \
        -- t sim catan_cards --players "ext:$PY $WORK/spy.py $WORK/spy$seat.log",random \
        --games $((seat + 1)) --seed 2 --out "$WORK/spy$seat.jsonl"
    tail -1 "$WORK/spy$seat.jsonl" >"$WORK/spy$seat.json"
    "$TAFEL" replay --views "$seat" "$WORK/spy$seat.json" >"$WORK/views$seat.jsonl"
    # One program plays every game of the sim, and its log holds them all:
    # the checker looks at the last game's.
    check "spy at seat $seat is told what its seat sees, no more" 0 "^all told" \
        -- "$PY" - "$WORK/spy$seat.log" "$WORK/spy$seat.json" "$WORK/views$seat.jsonl" "$seat" <<'EOF'
import json, sys
log = [json.loads(l) for l in open(sys.argv[1])]
record = json.load(open(sys.argv[2]))
views = [json.loads(l) for l in open(sys.argv[3])]
seat = int(sys.argv[4])
actions = record["actions"]
def need(cond, what):
    if not cond:
        print("wrong:", what)
        sys.exit(1)
need(log[0]["type"] == "hello" and log[0]["protocol"] == 1, "hello first: %r" % log[0])
# the conversation of the record's game: from its new_game on
starts = [i for i, m in enumerate(log) if m["type"] == "new_game"]
need(starts, "no new_game")
game = log[starts[-1]:]
new_game = game[0]
need(new_game["seat"] == seat and new_game["players"] == 2
     and new_game["game"] == record["game"] and isinstance(new_game["seed"], str)
     and new_game["seed"].isdigit() and str(int(new_game["seed"])) == new_game["seed"]
     and int(new_game["seed"]) < 2**64,
     "new_game: %r" % new_game)
need(game[-1]["type"] in ("game_over", "quit"), "ends with %r" % game[-1])
over = [m for m in game if m["type"] == "game_over"]
need(len(over) == 1 and (game[-1] is over[0] or game[-2] is over[0]), "one game_over, last")
over = over[0]
final = views[-1]["view"]
need(len(over["scores"]) == 2 and over["winners"] and "forfeit" not in over,
     "game_over: %r" % over)
need(over["scores"] == record["scores"] and over["winners"] == record["winners"],
     "game_over %r, the record's result %r %r" % (over, record["scores"], record["winners"]))
seen = [m for m in game if m["type"] == "seen"]
turns = [m for m in game if m["type"] == "turn"]
need(len(seen) == len(actions), "%d seen for %d actions" % (len(seen), len(actions)))
hidden = 0
for m in seen:
    i = m["move"]
    v = views[i + 1]
    need(v["actions"] == i + 1, "views out of step at %d" % i)
    need(m["action"] == v["text"], "seen %d: %r, replay --views %d says %r" % (i, m["action"], seat, v["text"]))
    need(m["by"] == v["seat"], "seen %d by %r, replay says %r" % (i, m["by"], v["seat"]))
    if m["action"] != actions[i]:  # hidden ("deal 1 ?"), or told more
        need("?" in m["action"] or m["action"].startswith(actions[i] + " ("),
             "seen %d: %r for %r" % (i, m["action"], actions[i]))
        hidden += "?" in m["action"]
    if m["by"] == seat:
        need(m["action"] == actions[i], "its own move %d told as %r" % (i, m["action"]))
need(hidden > 0, "nothing hidden from seat %d in a game of hidden hands" % seat)
need(any(m["by"] == 1 - seat and "?" in m["action"] for m in seen),
     "none of the other seat's moves hidden")
need(turns, "no turn")
for m in turns:
    i = m["move"]
    need(m["legal"], "turn %d: no legal action" % i)
    need(m["time_ms"] == 10000, "turn %d: time_ms %r" % (i, m["time_ms"]))
    need(actions[i] == m["legal"][0], "turn %d: answered %r, played %r" % (i, m["legal"][0], actions[i]))
    need(m["view"] == views[i]["view"], "turn %d: the view differs from replay --views" % i)
    need(views[i]["view"]["seat"] == seat, "turn %d: a view for seat %r" % (i, views[i]["view"]["seat"]))
print("all told: %d seen (%d hidden), %d turns" % (len(seen), hidden, len(turns)))
EOF
done
no_leftovers "spy: no process left"

finish
