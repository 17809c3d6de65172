#!/usr/bin/env bash
# Runs a node:test suite (the server's or the page's) and makes its failures
# readable and its verdict steady:
#   bash scripts/node-suite.sh NAME FILE...      (environment passed through)
#
# - The TAP goes out as it runs and into a file, and on a failure every
#   "not ok" block is printed again at the end: CI keeps a long log's head
#   and tail only, and the failure in its middle was lost twice.
# - A file with a failure is run once more, alone.  These suites drive real
#   servers and a real browser on a shared 2-core machine, and a deadline
#   missed under load is not a fault of the program.  The suite passes when
#   every failing file passes alone; the failure and the rerun are printed
#   all the same, marked FLAKY, and appended to $TAFEL_FLAKY_LOG (when set;
#   scripts/test.sh sets it and prints it at its end), so a flaky test stays
#   seen.  A file that fails alone again fails the suite.
#   TAFEL_NO_RERUN=1 turns the second run off.
set -uo pipefail
name=$1; shift

tap=$(mktemp "${TMPDIR:-/tmp}/tafel-$name-tap.XXXXXX")
rerun_tap=$(mktemp "${TMPDIR:-/tmp}/tafel-$name-rerun.XXXXXX")
trap 'rm -f "$tap" "$rerun_tap"' EXIT

failures() {
    awk '/^ *not ok / { p = 1 } p { print } p && /^ *\.\.\.$/ { p = 0 }' "$1" | head -n 300
}

status=0
node --test "$@" | tee "$tap" || status=$?
((status == 0)) && exit 0

echo "# $name: the suite failed (exit $status); its failures again:"
failures "$tap"

# The files the failures are in, from their "location: '/path/x.test.mjs:L:C'".
mapfile -t failed < <(grep -o "location: '[^']*\.test\.mjs" "$tap" | sed "s/^location: '//" | sort -u)
if [[ ${TAFEL_NO_RERUN:-} == 1 || ${#failed[@]} -eq 0 ]]; then
    ((${#failed[@]})) || echo "# $name: no failing file named in the TAP (a crash?); not run again"
    exit "$status"
fi

echo "# $name: running the failing file(s) once more, alone: ${failed[*]}"
again=0
node --test "${failed[@]}" > "$rerun_tap" 2>&1 || again=$?
if ((again)); then
    cat "$rerun_tap"
    echo "# $name: FAILED again alone; its failures:"
    failures "$rerun_tap"
    exit "$again"
fi

{
    echo "FLAKY ($name): failed in the suite, passed alone in ${failed[*]##*/}:"
    grep '^ *not ok ' "$tap" | sed 's/^ *not ok [0-9]* - /    /'
    # how it failed, for the log (a passing ctest test's output is not shown)
    failures "$tap" | grep -E "^ *(error|location|failureType|expected|actual):" | head -n 20 |
        sed 's/^ */      /'
} | tee -a "${TAFEL_FLAKY_LOG:-/dev/null}"
exit 0
