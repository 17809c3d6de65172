#!/usr/bin/env bash
# cli_test.sh -- the tafel program end to end: bash tests/cli_test.sh path/to/tafel
#
# Each check runs one command and tests its exit code and output; a failed
# check prints what it expected and what came out, and the run goes on.
# The last line is "N passed, M failed"; the exit code is non-zero on failure.
set -euo pipefail

TAFEL=${1:?usage: cli_test.sh path/to/tafel}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
# English, whatever the machine's locale (the language tests set their own)
unset LC_ALL LC_MESSAGES
export LANG=C.UTF-8

# play_with INPUT ARGS...: tafel play with INPUT on its standard input.
play_with() {
    local input=$1
    shift
    printf '%b' "$input" | "$TAFEL" play "$@"
}

check "help lists the commands" 0 "sim .*win rates" -- "$TAFEL" --help
check "help of one command" 0 "usage: tafel perft" -- "$TAFEL" help perft
check "--help after a command" 0 "usage: tafel replay" -- "$TAFEL" replay --help
check "version" 0 "^tafel [0-9]+\.[0-9]+" -- "$TAFEL" --version
check "unknown command" 2 "unknown command 'frobnicate'" -- "$TAFEL" frobnicate
check "unknown option" 2 "unknown option '--bogus'" -- "$TAFEL" sim --bogus
check "list shows games and bots" 0 "greedy" -- "$TAFEL" list
check "list shows parameters" 0 "players=2\.\.5" -- "$TAFEL" list
check "bad game string" 2 "players must be 2\.\.5" \
    -- "$TAFEL" play "carcassonne(players=6)" --players greedy,greedy
check "unknown game" 2 "unknown game 'chess'" -- "$TAFEL" perft chess
check "players disagree with the game string" 2 "players=3 but --players names 2" \
    -- "$TAFEL" sim "carcassonne(players=3)" --players random,random --games 1
check "unknown bot" 2 "unknown bot 'genius' \(bots: .*random" \
    -- "$TAFEL" sim --players genius,random --games 1
check "bad number" 2 "--games must be a number" -- "$TAFEL" sim --games many

check "sim writes records" 0 "games/s" \
    -- "$TAFEL" sim --players greedy,random --games 6 --threads 2 --seed 9 \
    --out "$WORK/games.jsonl"
lines=$(wc -l <"$WORK/games.jsonl")
[[ $lines -eq 6 ]] && ok "sim --out has one line per game" ||
    { echo "$lines lines" >"$WORK/out"; not_ok "sim --out has one line per game"; }
"$TAFEL" sim --players greedy,random --games 6 --threads 1 --seed 9 \
    --out "$WORK/games1.jsonl" >/dev/null
cmp -s "$WORK/games.jsonl" "$WORK/games1.jsonl" && ok "sim is the same for any thread count" ||
    { : >"$WORK/out"; not_ok "sim is the same for any thread count"; }

# timeless FILE: a report without what depends on the machine's speed: the
# games a second and the table of time a move (its heading and its rows).
timeless() {
    awk '/games\/s/ { next } /^ +time a move/ { t = 1; next } t && /^[0-9]/ { next } { t = 0; print }' "$1"
}

# same_output NAME A B: files A and B are the same, but for the speed.
same_output() {
    if diff <(timeless "$2") <(timeless "$3") >"$WORK/out"; then
        ok "$1"
    else
        not_ok "$1"
    fi
}

check "sim reports score and Elo differences, unbounded in words" 0 \
    "Elo difference 1-2 +unbounded +\[\+[0-9.]+, unbounded above\]  bot 1 won every game" \
    -- "$TAFEL" sim --players greedy,random --games 6 --seed 9
paired=(sim --players greedy,random --games 10 --paired --seed 4)
check "sim --paired plays every deal from both seats" 0 "10 games = 5 deals x 2 seatings" \
    -- "$TAFEL" "${paired[@]}" --threads 2 --out "$WORK/paired2.jsonl"
cp "$WORK/out" "$WORK/paired2.txt"
"$TAFEL" "${paired[@]}" --threads 1 --out "$WORK/paired1.jsonl" >"$WORK/paired1.txt"
same_output "sim --paired is the same for any thread count" "$WORK/paired1.txt" "$WORK/paired2.txt"
same_output "sim --paired records do not depend on threads" "$WORK/paired1.jsonl" \
    "$WORK/paired2.jsonl"
# Ten records, in runs of two with the same (chance) seed: uniq -c counts 2s.
name="sim --paired: the two games of a deal share its seed"
runs=$(grep -o '"seed":"[0-9]*"' "$WORK/paired2.jsonl" | uniq -c | awk '{ print $1 }' | sort -u)
lines=$(wc -l <"$WORK/paired2.jsonl")
[[ $lines -eq 10 && $runs == 2 ]] && ok "$name" ||
    { echo "$lines records, runs of $runs" >"$WORK/out"; not_ok "$name"; }
check "sim --paired refuses an odd number of games" 2 "--games must be a multiple of 2, not 7" \
    -- "$TAFEL" sim --players greedy,random --games 7 --paired

sprt=(sim cardcassonne --players greedy,random --games 1000 --sprt 0,50 --seed 3)
check "sim --sprt stops early when bot 1 is clearly stronger" 0 \
    "after [0-9]{1,3} games" -- "$TAFEL" "${sprt[@]}" --threads 2 --out "$WORK/sprt2.jsonl"
grep -q "^H1 accepted: greedy - random >= 50 Elo rather than <= 0" "$WORK/out" &&
    ok "sim --sprt accepts H1" || not_ok "sim --sprt accepts H1"
cp "$WORK/out" "$WORK/sprt2.txt"
"$TAFEL" "${sprt[@]}" --threads 1 >"$WORK/sprt1.txt"
same_output "sim --sprt stops at the same game for any thread count" "$WORK/sprt1.txt" \
    "$WORK/sprt2.txt"
check "sim --sprt with --paired accepts H1" 0 "^H1 accepted" \
    -- "$TAFEL" "${sprt[@]}" --paired
check "sim --sprt wants two numbers" 2 "--sprt '5': give two Elo differences ELO0,ELO1" \
    -- "$TAFEL" sim --players greedy,random --sprt 5
check "sim --sprt wants ELO0 < ELO1" 2 "--sprt '10,0': ELO0 must be less than ELO1" \
    -- "$TAFEL" sim --players greedy,random --sprt 10,0
check "sim --sprt refuses a number that is not finite" 2 "within -1000\.\.1000" \
    -- "$TAFEL" sim --players greedy,random --sprt 0,inf
check "sim --sprt compares two bots" 2 "--sprt compares two bots, but --players names 3" \
    -- "$TAFEL" sim --players greedy,random,random --sprt 0,10

# --resume: a run's records cut to k lines and half a line (a crash), then
# continued, end as the uninterrupted run's, report and file.
resumed=(sim cardcassonne --players greedy,random --games 120 --seed 5)
"$TAFEL" "${resumed[@]}" --threads 2 --out "$WORK/full.jsonl" >"$WORK/full.txt"
head -c $(( $(head -n 37 "$WORK/full.jsonl" | wc -c) + 200 )) "$WORK/full.jsonl" \
    >"$WORK/cut.jsonl"
check "sim --resume drops a cut last line and goes on" 0 \
    "resuming after 37 games read back" \
    -- "$TAFEL" "${resumed[@]}" --threads 2 --out "$WORK/cut.jsonl" --resume
grep -v "^tafel sim:" "$WORK/out" >"$WORK/cut.txt"
same_output "sim --resume reports as the uninterrupted run" "$WORK/full.txt" "$WORK/cut.txt"
cmp -s "$WORK/full.jsonl" "$WORK/cut.jsonl" && ok "sim --resume ends with the same records" ||
    { : >"$WORK/out"; not_ok "sim --resume ends with the same records"; }
head -n 60 "$WORK/sprt2.jsonl" >"$WORK/sprt-cut.jsonl"
"$TAFEL" "${sprt[@]}" --out "$WORK/sprt-cut.jsonl" --resume >"$WORK/sprt-resumed.txt" 2>/dev/null
same_output "sim --resume of an --sprt run stops at the same game" "$WORK/sprt1.txt" \
    "$WORK/sprt-resumed.txt"
cmp -s "$WORK/sprt2.jsonl" "$WORK/sprt-cut.jsonl" && ok "sim --resume of --sprt: the same records" ||
    { : >"$WORK/out"; not_ok "sim --resume of --sprt: the same records"; }
check "sim --resume without a file starts anew" 0 "games/s" \
    -- "$TAFEL" sim --players random,random --games 3 --out "$WORK/new.jsonl" --resume
check "sim --resume refuses another run's records" 1 \
    "line 1 cannot be game 0 of this run: its seed is not game 0's of --seed 6" \
    -- "$TAFEL" sim cardcassonne --players greedy,random --games 120 --seed 6 \
    --out "$WORK/full.jsonl" --resume
check "sim --resume refuses other seats" 1 "seat 0 is played by 'greedy', in this run by 'random'" \
    -- "$TAFEL" sim cardcassonne --players random,greedy --games 120 --seed 5 \
    --out "$WORK/full.jsonl" --resume
check "sim --resume refuses more records than games" 1 "holds more games than this run counts \(50\)" \
    -- "$TAFEL" sim cardcassonne --players greedy,random --games 50 --seed 5 \
    --out "$WORK/full.jsonl" --resume
cmp -s "$WORK/full.jsonl" "$WORK/cut.jsonl" && ok "a refused --resume leaves the file as it was" ||
    { : >"$WORK/out"; not_ok "a refused --resume leaves the file as it was"; }
check "sim --resume needs --out" 2 "--resume reads back the records of --out FILE" \
    -- "$TAFEL" sim --players random,random --resume
check "sim --progress: lines with the rate and the time left, and a last one" 0 \
    "^tafel sim: 1200/1200 games, [0-9.]+ games/s, done" \
    -- "$TAFEL" sim --players greedy,random --games 1200 --progress 1
grep -Eq "^tafel sim: [0-9]+/1200 games, [0-9.]+ games/s, [0-9]+m[0-9]{2}s left" "$WORK/out" &&
    ok "sim --progress shows the time left" || not_ok "sim --progress shows the time left"
check "sim: no progress line in a short run's log" 0 "^0$" \
    -- bash -c "'$TAFEL' sim --players random,random --games 3 2>&1 >/dev/null | grep -c . || true"
if "$TAFEL" sim --help | grep -q "built without MPI"; then
    check "sim refuses several MPI ranks when built without MPI" 1 "built without MPI" \
        -- env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$TAFEL" sim --games 1
fi

sed -n 3p "$WORK/games.jsonl" >"$WORK/one.json"
check "replay --json of a sim record" 0 '"terminal":true' \
    -- "$TAFEL" replay "$WORK/one.json" --json
if command -v python3 >/dev/null; then
    check "replay --json is one JSON object" 0 "^terminal True winners [0-9]" \
        -- bash -c "'$TAFEL' replay '$WORK/one.json' --json | python3 -c \
        'import json,sys; o=json.load(sys.stdin); print(\"terminal\", o[\"terminal\"], \"winners\", *o[\"winners\"])'"
fi
check "replay shows the scores" 0 "^Winner|^Shared win" -- "$TAFEL" replay "$WORK/games.jsonl"
echo '{"game": "carcassonne", "actions": ["draw D", "place 50 50 0"]}' >"$WORK/bad.json"
check "replay of an illegal record names the action" 1 "action 1 'place 50 50 0'" \
    -- "$TAFEL" replay "$WORK/bad.json"
# A record made before the rules update of issue 12: an animal joker given to
# a kind the player does not hold (red is sheep now, so the player holds sheep).
setup='"reveal B1","reveal B1","reveal B1","reveal B1","reveal B2","reveal B2","reveal B2","reveal B3","reveal B3","reveal B3"'
dealt='"deal 1 RA","deal 0 Y1","deal 1 AJ","deal 0 Y1","deal 1 Y2","deal 0 Y1","deal 1 Y2","deal 0 Y1","deal 1 Y2","deal 0 Y1","deal 1 Y2","deal 0 Y1"'
turns='"play RA G","follower R","play AJ G","play Y1 Y","follower G","play Y1 Y","play Y2 Y","play Y1 Y","play Y2 Y","play Y1 Y","play Y2 Y","play Y1 Y","play Y2 Y","play Y1 Y","keep","assign horse"'
echo "{\"game\": \"cardcassonne(players=2)\", \"actions\": [$setup,$dealt,$turns]}" >"$WORK/old.json"
check "replay of a record the new rules make illegal names the action" 1 \
    "action 37 'assign horse': .*you hold no horse card \(you hold: sheep\)" \
    -- "$TAFEL" replay "$WORK/old.json"
# Issue 13: bad input never crashes, never loses data.  Memory is bounded
# with ulimit -v, but for AddressSanitizer builds, whose shadow memory needs
# terabytes of address space: there the test's time limit is the bound.
memory_bound="ulimit -v 400000;"
bash -c "$memory_bound '$TAFEL' --version" >/dev/null 2>&1 || memory_bound=""
check "replay of /dev/zero stops with a reason, in bounded memory" 1 "byte 0 is a NUL byte" \
    -- bash -c "$memory_bound timeout 60 '$TAFEL' replay /dev/zero"
head -c 20000000 /dev/zero | tr '\0' ' ' >"$WORK/spaces.json"
check "replay of a huge file stops reading at 16 MiB" 1 "no record in the first 16 MiB" \
    -- bash -c "$memory_bound timeout 60 '$TAFEL' replay '$WORK/spaces.json'"
rm -f "$WORK/spaces.json"
check "sim --out to a full disk fails and says so" 1 "/dev/full: cannot write: No space left" \
    -- "$TAFEL" sim cardcassonne --players random,random --games 200 --out /dev/full
check "sim --games 10^9 streams its results (no up-front allocation)" 0 "^status 124$" \
    -- bash -c "timeout 3 '$TAFEL' sim cardcassonne --players random,random --games 1000000000; echo status \$?"
long=$(printf 'x%.0s' {1..600})
check "a game string too long is an error, not cut" 2 "game string is too long \(613 bytes" \
    -- "$TAFEL" perft "carcassonne($long)"
printf '{"game": "carcassonne", "players": ["\\u001b[2Jevil", "x"], "actions": []}' \
    >"$WORK/escape.json"
check "control characters from a record are escaped" 0 'Red \(\\x1b\[2Jevil\)' \
    -- "$TAFEL" replay "$WORK/escape.json"
check "record text after the JSON object is an error" 1 "text after the JSON object" \
    -- bash -c "printf '{\"game\": \"carcassonne\", \"actions\": []} x' >'$WORK/t.json'; '$TAFEL' replay '$WORK/t.json'"
echo '{"game": "carcassonne", "actions": [' >"$WORK/broken.json"
check "replay of broken JSON" 1 "bad JSON" -- "$TAFEL" replay "$WORK/broken.json"
check "replay of a missing file" 1 "No such file" -- "$TAFEL" replay "$WORK/nothing.json"

check "perft depth 1" 0 "^[0-9]+ leaves at depth 1 from carcassonne\\(players=2\\) after 10 seeded random actions \\(seed 1\\)" \
    -- "$TAFEL" perft carcassonne --seed 1 --depth 1
depth2=$("$TAFEL" perft --seed 4 --depth 2 --prefix 5 | awk '{ print $1 }')
divided=$("$TAFEL" perft --seed 4 --depth 2 --prefix 5 --divide |
    awk -F': ' 'NF == 2 { s += $2 } END { print s }')
[[ $depth2 == "$divided" && $depth2 -gt 0 ]] && ok "perft --divide adds up" ||
    { echo "$depth2 vs $divided" >"$WORK/out"; not_ok "perft --divide adds up"; }

check "bench prints its signature last" 0 "^Bench: [0-9a-f]{16}$" \
    -- bash -c "'$TAFEL' bench --games 20 --runs 2 --iters 50 | tail -1"
sig1=$("$TAFEL" bench --games 20 --runs 1 --iters 50 | tail -1)
sig2=$("$TAFEL" bench --games 20 --runs 1 --iters 80 | tail -1)
[[ $sig1 == "$sig2" ]] && ok "bench signature is reproducible, and the search stays out of it" ||
    { echo "$sig1 vs $sig2" >"$WORK/out"; not_ok "bench signature is reproducible, and the search stays out of it"; }
check "bench times the search" 0 "^carcassonne\(players=2\) +50 iterations x 2 runs .* iterations/s" \
    -- "$TAFEL" bench --game carcassonne --games 5 --runs 2 --iters 50

check "play: a wrong move is explained, the input quoted once" 0 "^cannot read 'foo': expected" \
    -- play_with 'help\nfoo\n1\nquit\n' carcassonne --players human,greedy --seed 3
check "play: a long wrong move is quoted once, as the library cuts it" 0 \
    "^(Red> )?'arrange( L){18} \\.\\.\\.': not an action" \
    -- play_with 'arrange L L L L L L L L L L L L L L L L L L L L L L L L L L L L L\nquit\n' \
    catan_cards --players human,greedy --seed 3
check "play: help lists the commands" 0 "hint +the hard bot's three best moves" \
    -- play_with 'help\nquit\n' --players human,greedy --seed 3
check "play: a move number out of range" 0 "there is no move 999" \
    -- play_with '999\nquit\n' --players human,greedy --seed 3
check "play: hint" 0 "^(Red> )?hint: place .* of the search, wins +[0-9]+%" \
    -- play_with 'hint\nquit\n' --players human,random --seed 3
check "play: hint, hidden cards" 0 "^(Red> )?hint: (play|follower) " \
    -- play_with 'row Y\nhint\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color
check "play: end of input quits" 0 "Game stopped" -- play_with '1\n' --players human,greedy --seed 3
check "play: save writes the record" 0 "saved the record" \
    -- play_with "1\nsave $WORK/saved.json\nquit\n" --players human,greedy --seed 3
check "play: the saved record replays" 0 '"actions":[1-9]' \
    -- "$TAFEL" replay "$WORK/saved.json" --json
check "play: a run of hidden chance lines is printed once, counted" 0 "\(13 times\)" \
    -- play_with 'quit\n' catan_cards --players greedy,human --seed 3 --no-color
check "play: --notation shows the chance lines' notation, folded" 0 "^\[stack 1 \?\] .* \(13 times\)" \
    -- play_with 'quit\n' catan_cards --players greedy,human --seed 3 --no-color --notation
check "play: the human seat can be any seat" 0 "Blue> " \
    -- play_with 'quit\n' --players greedy,human,random --seed 3
check "play: bots play to the end" 0 "^Winner|^Shared win" \
    -- "$TAFEL" play --players greedy,greedy --seed 11 --no-color --record "$WORK/bots.json"
check "play: what a move scored is announced" 0 "(Red|Blue) scores [0-9]+ points?" \
    -- "$TAFEL" play --players greedy,greedy --seed 11 --no-color
check "play: bot moves are told, with --notation their notation first" 0 \
    "^\[place -?[0-9]+ -?[0-9]+ [0-9]+\] Red " \
    -- "$TAFEL" play --players greedy,greedy --seed 11 --no-color --notation
check "play: its record replays to the end" 0 '"terminal":true' \
    -- "$TAFEL" replay "$WORK/bots.json" --json

# Issue 14: what a first-time player stumbled on.
check "play: undo takes back the placement before the follower" 0 "^Taken back\." \
    -- play_with '2\nundo\nquit\n' carcassonne --players human,greedy --seed 5 --no-color
check "play: undo says why not, before any move" 0 "^nothing to undo: only your own moves" \
    -- play_with 'undo\nquit\n' carcassonne --players human,greedy --seed 5 --no-color
check "play: undo never goes past another player's move" 0 \
    "^nothing to undo: only your own moves of this turn" \
    -- play_with 'row Y\n1\nundo\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color
check "play: --record is checked before the game" 2 \
    "--record '/nonexistent/r.json': its folder does not exist" \
    -- play_with '1\n' carcassonne --players human,greedy --seed 5 --record /nonexistent/r.json
check "play: --load continues a saved game" 0 "^Loaded 7 actions; play goes on" \
    -- bash -c "printf '1\n1\nsave $WORK/saved.json\nquit\n' | '$TAFEL' play carcassonne \
        --players human,greedy --seed 5 >/dev/null && printf 'quit\n' | '$TAFEL' play --load '$WORK/saved.json'"
check "play: --load with a game string is refused" 2 "--load continues the game of its record" \
    -- "$TAFEL" play carcassonne --load "$WORK/saved.json"
check "play: bot names in capitals" 0 "^Red> " \
    -- play_with 'quit\n' "carcassonne(first=1)" --players human,Greedy --seed 5
check "play: NO_COLOR is honoured" 0 "^NO_COLOR: no escape codes$" \
    -- bash -c "printf 'quit\n' | NO_COLOR=1 script -qc \"'$TAFEL' play carcassonne --seed 5\" /dev/null |
        grep -q \$'\\x1b\\[[0-9;]*m' && echo colour || echo 'NO_COLOR: no escape codes'"
check "play: help gives moves of the game being played" 0 'NUMBER or TEXT  play that move, e.g. 1 or "row Y", or "row B"' \
    -- play_with 'help\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color
check "play: Cardcassonne's setup is one chance paragraph" 0 "^\[reveal B1\] .*\[reveal G3\] " \
    -- play_with 'quit\n' cardcassonne --players human,greedy --seed 5 --no-color --notation
check "replay --at stops after N actions" 0 "^30 actions; next:" \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30
check "replay --step shows each action and the position after it" 0 "^30\. (Red|Blue) " \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30 --step
check "replay --step --notation: the notation first" 0 "^30\. \[[a-z]+[^]]*\] (Red|Blue) " \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30 --step --notation
check "replay --step --json: a line per action with its events" 0 \
    '^\{"n":30,"seat":[01],"action":"[^"]+","events":\[\{"kind":' \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30 --step --json
check "replay --step --json: every seat's account without --seat" 0 '"by_seat":\[\[\{"kind"' \
    -- "$TAFEL" replay "$WORK/bots.json" --at 3 --step --json
check "replay --step --json --seat: a seat out of range" 2 "--seat must be a seat -1\.\.1" \
    -- "$TAFEL" replay "$WORK/bots.json" --at 3 --step --json --seat 3
check "replay --seat without --step" 2 "go with --step" \
    -- "$TAFEL" replay "$WORK/bots.json" --seat 1
check "replay --lang: Dutch" 0 "^[0-9]+\. (Rood|Blauw) " \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30 --step --lang nl
check "replay: the language from LANG" 0 "^[0-9]+\. (Rot|Blau) " \
    -- env LANG=de_DE.UTF-8 "$TAFEL" replay "$WORK/bots.json" --at 30 --step
check "replay: LC_ALL before LANG" 0 "^[0-9]+\. (Rosso|Blu) " \
    -- env LANG=de_DE.UTF-8 LC_ALL=it_IT.UTF-8 "$TAFEL" replay "$WORK/bots.json" --at 30 --step
check "replay --lang: an unknown language" 2 "no catalog for language 'xx'" \
    -- "$TAFEL" replay "$WORK/bots.json" --step --lang xx
check "play --lang: Italian prompts" 0 "^Rosso> " \
    -- play_with 'quit\n' carcassonne --players human,greedy --seed 5 --no-color --lang it

# Cardcassonne: hidden cards stay hidden at the terminal, records keep them.
check "cardcassonne: listed" 0 "cardcassonne .*card game" -- "$TAFEL" list
check "cardcassonne: bad dealer" 2 "dealer must be a seat, 0\.\.1" \
    -- "$TAFEL" sim "cardcassonne(dealer=3)" --players random,random --games 1
check "cardcassonne: sim" 0 "games/s" \
    -- "$TAFEL" sim "cardcassonne(players=4)" --players greedy,random,random,random \
    --games 8 --seed 2 --out "$WORK/cc.jsonl"
check "cardcassonne: records name the dealt cards" 0 '"deal 1 [A-Z0-9]+"' -- cat "$WORK/cc.jsonl"
check "cardcassonne: replay" 0 "^Winner|^Shared win" -- "$TAFEL" replay "$WORK/cc.jsonl"
check "cardcassonne: perft" 0 "^496 leaves at depth 2" -- "$TAFEL" perft cardcassonne --prefix 0 --depth 2
check "cardcassonne: bench" 0 "cardcassonne\(players=4\) .* games/s" \
    -- "$TAFEL" bench --game cardcassonne --games 50 --runs 1 --iters 50
check "cardcassonne: bench steps a batch of 64" 0 \
    "^cardcassonne\(players=4\) +batch of 64 x 10 steps +median +[0-9]+ decisions/s" \
    -- "$TAFEL" bench --game cardcassonne --games 50 --runs 1 --iters 50
check "cardcassonne: the other hand is hidden" 0 "\[deal 1 \?\]" \
    -- play_with 'row Y\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color --notation
check "cardcassonne: your own cards are shown" 0 "\[deal 0 [A-Z][A-Z0-9]" \
    -- play_with 'row Y\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color --notation
check "cardcassonne: the four rows are drawn" 0 "B city +\|" \
    -- play_with 'row Y\nquit\n' cardcassonne --players human,greedy --seed 5 --no-color
check "cardcassonne: a face-up card in the wrong row" 0 "goes face up into the" \
    -- play_with 'row Y\nplay R2 R\nplay G1 B\nquit\n' cardcassonne --players human,greedy --seed 5 \
    --no-color
hotseat=$(printf '\n1\n\n1\n\nquit\n' |
    "$TAFEL" play cardcassonne --players human,human --seed 5 --no-color --notation 2>&1)
grep -q "pass the terminal to Blue and press Enter" <<<"$hotseat" &&
    grep -q "\[deal [01] ?\]" <<<"$hotseat" &&
    ! grep -q "\[deal [01] [A-Z]" <<<"$hotseat" && ok "cardcassonne: hotseat hides both hands" ||
    { echo "$hotseat" >"$WORK/out"; not_ok "cardcassonne: hotseat hides both hands"; }

# The Catan card game: hands and stacks hidden at the terminal, records whole.
check "catan: listed" 0 "catan_cards .*Catan card game" -- "$TAFEL" list
check "catan: only two players" 2 "players must be 2\.\.2" \
    -- "$TAFEL" sim "catan_cards(players=3)" --players random,random,random --games 1
check "catan: sim" 0 "games/s" \
    -- "$TAFEL" sim catan_cards --players greedy,random --games 4 --seed 2 --out "$WORK/ct.jsonl"
check "catan: records name the shuffled cards" 0 '"stack 1 [a-z-]+"' -- cat "$WORK/ct.jsonl"
check "catan: replay" 0 "^Winner|^Shared win" -- "$TAFEL" replay "$WORK/ct.jsonl"
check "catan: perft" 0 "^1907 leaves at depth 2" -- "$TAFEL" perft catan_cards --prefix 0 --depth 2
check "catan: bench" 0 "catan_cards .* games/s" -- "$TAFEL" bench --game catan --games 5 --runs 1 --iters 50
check "catan: the shuffles are hidden" 0 "^\[stack 1 \?\]" \
    -- play_with 'quit\n' catan_cards --players human,greedy --seed 3 --no-color --notation
check "catan: how to arrange is explained" 0 "arranges the start regions" \
    -- play_with 'quit\n' catan_cards --players human,greedy --seed 3 --no-color
check "catan: a long move list is cut" 0 "and 660 more, up to 720" \
    -- play_with 'quit\n' catan_cards --players human,greedy --seed 3 --no-color
check "catan: a long move list is cut, in German" 0 "und 660 weitere, bis 720" \
    -- play_with 'quit\n' catan_cards --players human,greedy --seed 3 --no-color --lang de
check "catan: a bad action is explained" 0 "'arrange G G G G G G': not an action" \
    -- play_with 'arrange G G G G G G\nquit\n' catan_cards --players human,greedy --seed 3 --no-color

# Every word of an account comes from the catalog: in the pseudo-language
# (each text of English wrapped in ⟦…⟧) a told action has nothing outside the
# marks but its number, blanks, digits and punctuation.
python3 "$(dirname "${BASH_SOURCE[0]}")/catalog_test.py" --pseudo "$WORK/i18n/qps" >/dev/null
cp -r "$(dirname "${BASH_SOURCE[0]}")/../web/i18n/en" "$WORK/i18n/en"
for record in "$WORK/bots.json" "$WORK/cc.jsonl" "$WORK/ct.jsonl"; do
    told=$(TAFEL_I18N_DIR=$WORK/i18n "$TAFEL" replay "$record" --step --lang qps --seat 0 |
        grep -E '^[0-9]+\. ' || true)
    unmarked=$(sed -E 's/^[0-9]+\. //; :a; s/⟦[^⟦⟧]*⟧//; ta' <<<"$told" | grep -E '[A-Za-z]{2,}' | head -3 || true)
    name=$(basename "$record")
    [[ -n $told && -z $unmarked ]] && ok "pseudo-language: every account of $name is catalog text" ||
        { printf '%s\n' "$unmarked" >"$WORK/out"; not_ok "pseudo-language: every account of $name is catalog text"; }
done

# The picture between turns speaks the language too (TAFEL_RENDER_WORDS, the
# catalogs' <game>.view.*), its columns padded to the width of the words said.
check "play --lang nl: the players and the pile in Dutch, in columns" 0 \
    "^> R Rood     0 punten, 7 horigen in voorraad" \
    -- play_with 'quit\n' carcassonne --players human,greedy --seed 5 --no-color --lang nl
check "play --lang nl: the pile in Dutch" 0 "^Nog in de stapel \(70\): A:2 B:4" \
    -- play_with 'quit\n' carcassonne --players human,greedy --seed 5 --no-color --lang nl
check "play --lang de: Cardcassonne's round in German" 0 \
    "^Cardcassonne, Runde 1 von 10, Rot teilt aus, 122 Karten im Stapel$" \
    -- play_with 'quit\n' cardcassonne --players human,greedy --seed 5 --no-color --lang de
check "play --lang de: Cardcassonne's rows titled in German" 0 "^  R Straße   \| RA$" \
    -- play_with 'quit\n' cardcassonne --players human,greedy --seed 5 --no-color --lang de
check "play --lang de: the Catan card game's key in German" 0 "^  Hand 2/3 +Karten auf der Hand" \
    -- play_with 'key\nquit\n' catan_cards --players human,greedy --seed 3 --no-color --lang de
check "replay --step --lang nl: the end in Dutch" 0 "^Het spel is afgelopen\.$" \
    -- "$TAFEL" replay "$WORK/bots.json" --step --lang nl
check "replay --step --lang de: the end in German" 0 "^Das Spiel ist zu Ende\.$" \
    -- "$TAFEL" replay "$WORK/cc.jsonl" --step --lang de
check "replay --step --lang en: the picture's English as it was" 0 "^Left in the pile \([0-9]+\):" \
    -- "$TAFEL" replay "$WORK/bots.json" --at 30 --step --lang en
marks=$({ play_with 'key\nboard\nquit\n' carcassonne --players human,greedy --seed 5 --lang de
    play_with 'key\nquit\n' cardcassonne --players human,greedy --seed 5 --lang nl
    "$TAFEL" replay "$WORK/bots.json" --step --lang it
    "$TAFEL" replay "$WORK/ct.jsonl" --step --lang de; } 2>&1 | grep -c $'[\x1e\x1f]' || true)
[[ $marks == 0 ]] && ok "the picture leaves no event marks behind" ||
    { echo "$marks lines with \\x1e or \\x1f" >"$WORK/out"; not_ok "the picture leaves no event marks behind"; }

# Every word of the picture comes from the catalog too: outside the marks of the
# pseudo-language only the drawing and notation are left (upper-case tile
# letters and card codes, the half-edges, and the words of the record's own
# actions: Catan's cards and pieces are named by their notation).
for record in "$WORK/bots.json" "$WORK/cc.jsonl" "$WORK/ct.jsonl"; do
    name=$(basename "$record")
    stray=$(TAFEL_I18N_DIR=$WORK/i18n "$TAFEL" replay "$record" --step --lang qps --seat 0 |
        grep -vE '^[0-9]+\. ' | python3 -c '
import json, re, sys
word = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
notation = {"settlement", "road", "city"}
with open(sys.argv[1]) as f:
    for line in f:
        for action in json.loads(line)["actions"]:
            notation.update(word.findall(action))
text = sys.stdin.read()
said = text.count("\u27e6")
while True:  # innermost first: the marks of a symbol lie inside its sentence
    text, n = re.subn(r"\u27e6[^\u27e6\u27e7]*\u27e7", "", text)
    if not n:
        break
stray = sorted({w for w in word.findall(text)
                if len(w) > 1 and w not in notation
                and not re.fullmatch(r"[A-Z]+[0-9]*|Au[0-9]+", w)})
print("nothing said" if said == 0 else " ".join(stray[:5]))
' "$record")
    [[ -z $stray ]] && ok "pseudo-language: every word of the picture of $name is catalog text" ||
        { printf "%s\n" "$stray" >"$WORK/out"
          not_ok "pseudo-language: every word of the picture of $name is catalog text"; }
done

# The keys ('key' in tafel play) too, and the cut move list: outside the marks
# only symbols, codes, the commands typed and the listed moves.
for game in "carcassonne(crop_circles=true)" cardcassonne catan_cards; do
    stray=$(TAFEL_I18N_DIR=$WORK/i18n play_with 'key\nboard\nquit\n' "$game" --players human,greedy \
        --seed 3 --no-color --lang qps 2>&1 | grep -vE '^ *[0-9]+\. ' | python3 -c '
import re, sys
word = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
text = sys.stdin.read()
keys = text.count("\u27e6")
while True:
    text, n = re.subn(r"\u27e6[^\u27e6\u27e7]*\u27e7", "", text)
    if not n:
        break
notation = {"settlement", "road", "city", "key", "board", "quit"}
stray = sorted({w for w in word.findall(text) if len(w) > 1 and w not in notation
                and not re.fullmatch(r"[A-Z]+[0-9]*|Au[0-9]+", w)})
print("nothing said" if keys == 0 else " ".join(stray[:5]))
')
    [[ -z $stray ]] && ok "pseudo-language: every word of the key of $game is catalog text" ||
        { printf "%s\n" "$stray" >"$WORK/out"
          not_ok "pseudo-language: every word of the key of $game is catalog text"; }
done

# The accounts of a whole record add up: the points of every event, seat by
# seat, are the final scores less the initial ones (Catan starts at 2 each).
for record in "$WORK/bots.json" "$WORK/cc.jsonl" "$WORK/ct.jsonl"; do
    name=$(basename "$record")
    check "replay --step --json: the points of $name add up to its scores" 0 "^points add up" \
        -- python3 -c '
import json, subprocess, sys
tafel, record = sys.argv[1:3]
def run(*args):
    return subprocess.run([tafel, "replay", record, *args], check=True, capture_output=True,
                          text=True).stdout
start = json.loads(run("--json", "--at", "0"))["scores"]
end = json.loads(run("--json"))["scores"]
total = list(start)
for line in run("--step", "--json").splitlines():
    for event in json.loads(line)["events"]:
        for seat, p in enumerate(event.get("points", [])):
            total[seat] += p
print("points add up" if total == end else "points %s, scores %s" % (total, end))
' "$TAFEL" "$record"
done

# soak
# A few games each: every invariant after every action (docs/soak.md has the
# long runs).  Games depend on the seed alone, not on --threads or --every.
check "soak: listed" 0 "soak .*invariant" -- "$TAFEL" --help
check "soak: help" 0 "usage: tafel soak .*--every K" -- "$TAFEL" soak --help
check "soak: carcassonne" 0 "^carcassonne\(players=2\): 3 games, [0-9]+ actions, .* 0 failures" \
    -- "$TAFEL" soak --games 3 --out "$WORK/soak-failure.json"
[[ ! -e $WORK/soak-failure.json ]] && ok "soak: no record without a failure" ||
    { echo "soak-failure.json written" >"$WORK/out"; not_ok "soak: no record without a failure"; }
check "soak: crop circles, 5 players" 0 "^carcassonne\(players=5,crop_circles=true\): 2 games" \
    -- "$TAFEL" soak "carcassonne(players=5,crop_circles=true)" --games 2 --seed 4
check "soak: cardcassonne" 0 "^cardcassonne\(players=3\): 4 games, .* 0 failures" \
    -- "$TAFEL" soak "cardcassonne(players=3)" --games 4 --threads 2
check "soak: catan" 0 "views checked every 50 actions" \
    -- "$TAFEL" soak catan_cards --games 1 --every 50 --seed 2
soak_one=$("$TAFEL" soak cardcassonne --games 6 --seed 5 2>&1 | head -1)
soak_two=$("$TAFEL" soak cardcassonne --games 6 --seed 5 --threads 3 --every 7 2>&1 | head -1)
[[ $soak_one == *" actions, "* && ${soak_one%%, [0-9.]* s,*} == "${soak_two%%, [0-9.]* s,*}" ]] &&
    ok "soak: the same games on any threads" ||
    { echo "$soak_one / $soak_two" >"$WORK/out"; not_ok "soak: the same games on any threads"; }
check "soak: bad --games" 2 "--games must be a number 1\.\." -- "$TAFEL" soak --games 0
check "soak: bad --every" 2 "--every must be a number 1\.\." -- "$TAFEL" soak --every x
check "soak: unknown game" 2 "unknown game 'chess'" -- "$TAFEL" soak chess

# replay --views SEAT: what one seat was shown, one JSON line per position
# (tests/server/ holds tafel serve's messages to these lines).
sed -n 1p "$WORK/cc.jsonl" >"$WORK/cc1.json"
cc_actions=$("$TAFEL" replay "$WORK/cc1.json" --json | grep -o '"actions":[0-9]*' | cut -d: -f2)
views_lines=$("$TAFEL" replay "$WORK/cc1.json" --views 0 | wc -l)
[[ $views_lines -eq $((cc_actions + 1)) ]] && ok "replay --views: a line per action and one for the start" ||
    { echo "$views_lines lines for $cc_actions actions" >"$WORK/out"; not_ok "replay --views: a line per action and one for the start"; }
check "replay --views: the first line is the initial view" 0 \
    '^\{"actions":0,"view":\{"game":"cardcassonne\(players=4\)","seat":2,.*"text":null,"seat":null,"reveals":null\}$' \
    -- bash -c "'$TAFEL' replay '$WORK/cc1.json' --views 2 | head -1"
check "replay --views: another seat's dealt card is ?" 0 '"text":"deal 0 \?","seat":"chance"' \
    -- "$TAFEL" replay "$WORK/cc1.json" --views 1
check "replay --views: the seat's own dealt cards are shown" 0 '"text":"deal 1 [A-Z][A-Z0-9]"' \
    -- "$TAFEL" replay "$WORK/cc1.json" --views 1
check "replay --views: no other seat's dealt card is shown" 0 "^0 lines show one$" \
    -- bash -c "'$TAFEL' replay '$WORK/cc1.json' --views 1 |
        { grep -Ec '\"text\":\"deal [023] [A-Z]' || true; } | sed 's/$/ lines show one/'"
check "replay --views -1: a spectator sees no dealt card" 0 "^0 lines show one$" \
    -- bash -c "'$TAFEL' replay '$WORK/cc1.json' --views -1 |
        { grep -Ec '\"text\":\"deal [0-3] [A-Z]' || true; } | sed 's/$/ lines show one/'"
check "replay --views: seat actions say who played and whether they revealed" 0 \
    '"seat":[0-3],"reveals":(true|false)\}$' -- "$TAFEL" replay "$WORK/cc1.json" --views -1
check "replay --views with --at N stops after N actions" 0 '^11 \{"actions":10,' \
    -- bash -c "'$TAFEL' replay '$WORK/cc1.json' --views 0 --at 10 | awk 'END { print NR, \$0 }'"
check "replay --views: a seat out of range" 2 "--views must be a seat -1\.\.3 \(-1: a spectator\), not 4" \
    -- "$TAFEL" replay "$WORK/cc1.json" --views 4
check "replay --views: not a number" 2 "--views must be a number" \
    -- "$TAFEL" replay "$WORK/cc1.json" --views x
sed -n 1p "$WORK/ct.jsonl" >"$WORK/ct1.json"
check "replay --views: catan draws show their player something" 0 \
    '"text":"draw [0-9]","seat":[01],"reveals":true' -- "$TAFEL" replay "$WORK/ct1.json" --views 0
check "replay --views: catan stacks are hidden from the seats" 0 '"text":"stack 1 \?"' \
    -- "$TAFEL" replay "$WORK/ct1.json" --views 0
if command -v python3 >/dev/null; then
    check "replay --views: every line is JSON, the view that of the seat" 0 "^lines [0-9]+ ok$" \
        -- bash -c "'$TAFEL' replay '$WORK/ct1.json' --views 1 | python3 -c \
        'import json,sys; ls=[json.loads(l) for l in sys.stdin]; assert all(o[\"view\"][\"seat\"] == 1 for o in ls); print(\"lines\", len(ls), \"ok\")'"
fi

finish
