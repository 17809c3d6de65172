#!/usr/bin/env bash
# mpi_test.sh -- `tafel sim` under MPI equals one process:
#   bash tests/mpi_test.sh path/to/tafel path/to/mpirun
#
# Each case runs the same sim in one process and under mpirun with 2 and 3
# ranks (oversubscribed: the CI machine may have fewer cores), and compares
# the reports (but for the games/s figure) and the records files (cmp).
# OpenMPI refuses to run as root, as CI does, unless told.
# The last line is "N passed, M failed"; the exit code is non-zero on failure.
set -euo pipefail

TAFEL=${1:?usage: mpi_test.sh path/to/tafel path/to/mpirun}
MPIRUN=${2:-mpirun}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
CHECK_LOG=$WORK/why
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# mpi NP ARGS...: tafel ARGS under mpirun with NP ranks, bounded in time so
# that a hang fails the test instead of the CI job.
mpi() {
    local np=$1
    shift
    timeout 60 "$MPIRUN" --oversubscribe -np "$np" "$TAFEL" "$@"
}

# timeless FILE: a report without what depends on the machine's speed: the
# games a second, the table of time a move (its heading and its rows), and
# in JSON each bot's "think".
timeless() {
    awk '/games\/s/ { next } /^ +time a move/ { t = 1; next } t && /^[0-9]/ { next } { t = 0; print }' \
        "$1" | sed -E 's/,"think":\{[^}]*\}//g'
}

# same NAME A B [RECORDS_A RECORDS_B]: reports A and B agree but for the
# speed, and so do the records files, byte for byte.
same() {
    local name=$1
    if ! diff <(timeless "$2") <(timeless "$3") >"$WORK/why" 2>&1; then
        not_ok "$name"
    elif [[ $# -gt 3 ]] && ! cmp "$4" "$5" >"$WORK/why" 2>&1; then
        not_ok "$name"
    else
        ok "$name"
    fi
}

# compare NAME ARGS...: the sim ARGS with --out, in one process and on 2 and
# 3 ranks, report and records alike.
compare() {
    local name=$1
    shift
    "$TAFEL" sim "$@" --out "$WORK/one.jsonl" >"$WORK/one.txt"
    for np in 2 3; do
        if mpi "$np" sim "$@" --out "$WORK/np$np.jsonl" >"$WORK/np$np.txt" 2>"$WORK/err"; then
            same "$name, $np ranks" "$WORK/one.txt" "$WORK/np$np.txt" \
                "$WORK/one.jsonl" "$WORK/np$np.jsonl"
        else
            cp "$WORK/err" "$WORK/why"
            not_ok "$name, $np ranks (exit status)"
        fi
    done
}

compare "plain games" cardcassonne --players greedy,random --games 400 --seed 7
# the work was shared: rank 0 says how many games each rank was given
if grep -Eq "games handed out: [1-9][0-9]* to rank 0, [1-9][0-9]*\.\.[0-9]+ to each of the other 2" \
    "$WORK/err"; then
    ok "every rank played games"
else
    cp "$WORK/err" "$WORK/why"
    not_ok "every rank played games"
fi
compare "three bots" "cardcassonne(players=3)" --players greedy,random,random --games 90
compare "--paired" --players greedy,random --games 24 --paired --seed 4
compare "--threads 2 on every rank" cardcassonne --players random,greedy --games 300 \
    --threads 2 --seed 11
compare "--sprt stops at the same game" cardcassonne --players greedy,random \
    --games 5000 --sprt 0,10 --seed 3
grep -q "after 101 games" "$WORK/np3.txt" && ok "--sprt stopped early (101 of 5000 games)" ||
    { cp "$WORK/np3.txt" "$WORK/why"; not_ok "--sprt stopped early (101 of 5000 games)"; }
compare "--sprt --paired" cardcassonne --players greedy,random --games 5000 --paired \
    --sprt 0,10 --seed 3

# Resume: a complete run's records cut to k lines and half a line, as a
# crash leaves them, continued under MPI, end as the complete run's.
run=(sim cardcassonne --players greedy,random --games 300 --seed 5)
"$TAFEL" "${run[@]}" --out "$WORK/full.jsonl" >"$WORK/full.txt"
for np in 2 3; do
    k=$((40 * np))
    bytes=$(head -n "$k" "$WORK/full.jsonl" | wc -c)
    head -c $((bytes + 150)) "$WORK/full.jsonl" >"$WORK/cut.jsonl"
    if mpi "$np" "${run[@]}" --out "$WORK/cut.jsonl" --resume >"$WORK/cut.txt" 2>"$WORK/err" &&
        grep -q "resuming after $k games" "$WORK/err"; then
        same "--resume after $k games and a cut line, $np ranks" "$WORK/full.txt" \
            "$WORK/cut.txt" "$WORK/full.jsonl" "$WORK/cut.jsonl"
    else
        cp "$WORK/err" "$WORK/why"
        not_ok "--resume after $k games and a cut line, $np ranks"
    fi
done

# Errors: said once, by rank 0, and every rank exits.
status=0
mpi 3 sim --bogus >"$WORK/out" 2>&1 || status=$?
count=$(grep -c "unknown option '--bogus'" "$WORK/out" || true)
[[ $status -eq 2 && $count -eq 1 ]] && ok "a bad option: one usage error, exit 2" ||
    { { echo "status $status, said $count times"; cat "$WORK/out"; } >"$WORK/why";
      not_ok "a bad option: one usage error, exit 2"; }
status=0
mpi 2 sim --games 4 --out "$WORK/no/such/dir/x.jsonl" >"$WORK/out" 2>&1 || status=$?
count=$(grep -c "cannot write" "$WORK/out" || true)
[[ $status -eq 1 && $count -eq 1 ]] && ok "rank 0 cannot open --out: every rank stops" ||
    { { echo "status $status"; cat "$WORK/out"; } >"$WORK/why";
      not_ok "rank 0 cannot open --out: every rank stops"; }
status=0
mpi 2 sim cardcassonne --players random,random --games 2000 --out /dev/full \
    >"$WORK/out" 2>&1 || status=$?
[[ $status -eq 1 ]] && grep -q "/dev/full: cannot write" "$WORK/out" &&
    ok "a write error on rank 0 stops every rank" ||
    { cp "$WORK/out" "$WORK/why"; not_ok "a write error on rank 0 stops every rank"; }
status=0
mpi 2 sim --help >"$WORK/out" 2>&1 || status=$?
count=$(grep -c "^usage: tafel sim" "$WORK/out" || true)
[[ $status -eq 0 && $count -eq 1 ]] && ok "--help printed once" ||
    { cp "$WORK/out" "$WORK/why"; not_ok "--help printed once"; }

# Progress on rank 0: lines in a log (stderr is no terminal under mpirun),
# with the rate and the time left, and one closing line.
mpi 2 sim --players greedy,random --games 2000 --progress 1 >/dev/null 2>"$WORK/err" || true
if grep -Eq "^tafel sim: [0-9]+/2000 games, [0-9.]+ games/s, [0-9]+m[0-9]{2}s left$" \
    "$WORK/err" && grep -q "^tafel sim: 2000/2000 games, .* done$" "$WORK/err"; then
    ok "progress lines on rank 0: games, rate, time left"
else
    cp "$WORK/err" "$WORK/why"
    not_ok "progress lines on rank 0: games, rate, time left"
fi

# --json: rank 0 alone prints the one object, that of one process but for
# the time (its last two fields).
json_run=(sim cardcassonne --players greedy,random --games 200 --paired --seed 7 --json)
"$TAFEL" "${json_run[@]}" | sed -E 's/,"seconds":.*//' >"$WORK/json1.txt"
mpi 2 "${json_run[@]}" 2>/dev/null | sed -E 's/,"seconds":.*//' >"$WORK/json2.txt" || true
if [[ $(wc -l <"$WORK/json2.txt") -eq 1 ]] && grep -q '"unit":"deal"' "$WORK/json2.txt"; then
    same "--json, 2 ranks: one object, as one process's" "$WORK/json1.txt" "$WORK/json2.txt"
else
    cp "$WORK/json2.txt" "$WORK/why"
    not_ok "--json, 2 ranks: one object, as one process's"
fi

finish
