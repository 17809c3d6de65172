# checks.sh -- what the shell tests share (sourced after WORK, their
# temporary folder, is set): "ok NAME" and "FAIL NAME" lines counted, and
# check, which runs a command and holds its exit status and output to what
# is expected.  A FAIL line is followed by the end of $CHECK_LOG (by default
# $WORK/out: what the failed command printed).
passed=0
failed=0
: "${CHECK_LOG:=$WORK/out}"

ok() { passed=$((passed + 1)); echo "ok   $1"; }
not_ok() {
    failed=$((failed + 1))
    echo "FAIL $1"
    sed 's/^/     | /' "$CHECK_LOG" | tail -20
}
# fail NAME WHY: a failed check that ran no command of its own.
fail() { echo "$2" >"$CHECK_LOG"; not_ok "$1"; }

# check NAME EXPECTED_STATUS PATTERN -- COMMAND...: the command exits with
# EXPECTED_STATUS and its output (stdout and stderr) matches the grep -E
# PATTERN.  The time it took is left in $took (seconds, with decimals).
took=0
check() {
    local name=$1 want=$2 pattern=$3 status=0 start
    shift 4
    start=$(date +%s%N)
    "$@" >"$CHECK_LOG" 2>&1 || status=$?
    took=$((($(date +%s%N) - start) / 1000000))
    took=$((took / 1000)).$(printf '%03d' $((took % 1000)))
    if [[ $status -ne $want ]]; then
        echo "     exit status $status, expected $want" >>"$CHECK_LOG"
        not_ok "$name"
    elif ! grep -Eq -- "$pattern" "$CHECK_LOG"; then
        echo "     output does not match /$pattern/" >>"$CHECK_LOG"
        not_ok "$name"
    else
        ok "$name"
    fi
}

# The last line, and the exit status of the test.
finish() {
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 ]]
}
