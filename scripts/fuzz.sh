#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer +
# UndefinedBehaviorSanitizer) in their own tree and runs them; docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
Usage: scripts/fuzz.sh TARGET MINUTES [LIBFUZZER_OPTION...]
       scripts/fuzz.sh --ci [SECONDS]
       scripts/fuzz.sh --coverage [TARGET...]
       scripts/fuzz.sh --list | --help

Builds the fuzz targets (tests/fuzz/*.c) with clang and
-fsanitize=fuzzer,address,undefined into build-fuzz (FUZZ_DIR to change it).

TARGET MINUTES  runs one target for that long (MINUTES may be a fraction;
                0 runs the seed corpus once).  It starts from the seeds in
                tests/fuzz/corpus/TARGET and keeps what it finds new in
                build-fuzz/corpus/TARGET; a finding (crash, sanitizer report,
                failed check) is saved under build-fuzz/findings/TARGET/ and
                stops the run with a non-zero status.  Extra options go to
                libFuzzer (-use_value_profile=1, -jobs=2, ...).  The log is
                build-fuzz/logs/TARGET.log.
--ci [SECONDS]  runs every target for SECONDS (default 15) from its seeds
                alone, and fails on the first finding.
--coverage [TARGET...]
                line coverage of src/ reached by each target's corpus (the
                seeds and build-fuzz/corpus/TARGET), from a build with clang's
                source-based coverage in build-fuzz-cov (needs llvm-cov and
                llvm-profdata: Debian package llvm).
--list          the targets.

TAFEL_FUZZ_STRICT=1 in the environment also reports the known defects the
targets let through for now (each is marked KNOWN DEFECT in tests/fuzz).
Reproduce a finding: build-fuzz/tests/fuzz/fuzz_TARGET FILE
EOF
}

targets() {
  for f in tests/fuzz/*.c; do basename "$f" .c; done
}

dir=${FUZZ_DIR:-build-fuzz}

build() {
  bash scripts/deps.sh --fuzz
  cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTAFEL_SANITIZE=ON -DTAFEL_FUZZ=ON -DTAFEL_TESTS=OFF >/dev/null
  local names=()
  for t in "$@"; do names+=("fuzz_$t"); done
  cmake --build "$dir" -j"$(nproc)" --target "${names[@]}"
}

# The figures of a libFuzzer log: executions, coverage, corpus.
summary() {
  local log=$1
  local last
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  local execs
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  local rate
  rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)
  echo "execs ${execs:-?} (${rate:-?}/s); last status: ${last:-none}"
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Lines covered, by part (the core and each game) and in all: columns 8 and
# 9 of llvm-cov's report are lines and missed lines.  Only the library's
# files that the binaries link count.
report() {
  local profile=$1
  shift
  "$llvmcov" report "$@" -instr-profile="$profile" src/core src/games |
    awk 'NF >= 13 && $8 ~ /^[0-9]+$/ {
      part = $1 == "TOTAL" ? "all" : $1
      sub(/\/[^\/]*$/, "", part); sub(/^games\//, "", part)
      lines[part] += $8; missed[part] += $9 }
    END { for (p in lines) printf "  %-14s %5d of %5d lines (%.0f%%)\n", p,
            lines[p] - missed[p], lines[p], 100 * (lines[p] - missed[p]) / lines[p] }' |
    sort
}

case "${1:-}" in
  -h|--help|"")
    usage
    [ -n "${1:-}" ] || exit 2
    exit 0
    ;;
  --list)
    targets
    exit 0
    ;;
  --ci)
    seconds=${2:-15}
    mapfile -t all < <(targets)
    start=$SECONDS
    build "${all[@]}"
    echo "fuzz: built in $((SECONDS - start)) s; ${seconds} s per target"
    for t in "${all[@]}"; do
      work="$dir/ci/$t"
      rm -rf "$work"
      mkdir -p "$work/corpus" "$work/findings"
      log="$work/log"
      if ! nice "$dir/tests/fuzz/fuzz_$t" "$work/corpus" "tests/fuzz/corpus/$t" \
          -dict=tests/fuzz/tafel.dict -max_total_time="$seconds" -print_final_stats=1 \
          -artifact_prefix="$work/findings/" >"$log" 2>&1; then
        tail -60 "$log" >&2
        echo "fuzz: $t: FINDING (log $log, input in $work/findings/)" >&2
        exit 1
      fi
      echo "fuzz: $t: no finding; $(summary "$log")"
    done
    echo "fuzz: all targets passed in $((SECONDS - start)) s"
    exit 0
    ;;
  --coverage)
    shift
    mapfile -t wanted < <(if [ $# -gt 0 ]; then printf '%s\n' "$@"; else targets; fi)
    profdata=$(command -v llvm-profdata || command -v llvm-profdata-14 || true)
    llvmcov=$(command -v llvm-cov || command -v llvm-cov-14 || true)
    if [ -z "$profdata" ] || [ -z "$llvmcov" ]; then
      echo "fuzz.sh: --coverage needs llvm-profdata and llvm-cov (apt-get install llvm)" >&2
      exit 2
    fi
    dir="$dir-cov"
    bash scripts/deps.sh --fuzz
    cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTAFEL_SANITIZE=ON -DTAFEL_FUZZ=ON -DTAFEL_TESTS=OFF \
      -DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping" >/dev/null
    names=()
    for t in "${wanted[@]}"; do names+=("fuzz_$t"); done
    cmake --build "$dir" -j"$(nproc)" --target "${names[@]}"
    mkdir -p "$dir/profiles"
    for t in "${wanted[@]}"; do
      corpus=("tests/fuzz/corpus/$t")
      [ -d "${FUZZ_DIR:-build-fuzz}/corpus/$t" ] && corpus+=("${FUZZ_DIR:-build-fuzz}/corpus/$t")
      rm -f "$dir/profiles/$t".*
      LLVM_PROFILE_FILE="$dir/profiles/$t.%p.profraw" nice "$dir/tests/fuzz/fuzz_$t" \
        -runs=0 "${corpus[@]}" >"$dir/profiles/$t.log" 2>&1
      "$profdata" merge -sparse "$dir/profiles/$t".*.profraw -o "$dir/profiles/$t.profdata"
      echo "== $t (${corpus[*]})"
      report "$dir/profiles/$t.profdata" "$dir/tests/fuzz/fuzz_$t"
    done
    if [ ${#wanted[@]} -gt 1 ]; then
      echo "== all of them (${wanted[*]})"
      profiles=()
      objects=()
      for t in "${wanted[@]}"; do
        profiles+=("$dir/profiles/$t.profdata")
        objects+=(-object "$dir/tests/fuzz/fuzz_$t")
      done
      "$profdata" merge -sparse "${profiles[@]}" -o "$dir/profiles/all.profdata"
      report "$dir/profiles/all.profdata" "${objects[@]:1}"
    fi
    exit 0
    ;;
  -*)
    echo "fuzz.sh: unknown option '$1' (see --help)" >&2
    exit 2
    ;;
esac

target=$1
minutes=${2:-}
shift 2 || { usage >&2; exit 2; }
if [ ! -f "tests/fuzz/$target.c" ]; then
  echo "fuzz.sh: no target '$target' (targets: $(targets | tr '\n' ' '))" >&2
  exit 2
fi
if ! [[ $minutes =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "fuzz.sh: MINUTES must be a number, not '$minutes'" >&2
  exit 2
fi
build "$target"
mkdir -p "$dir/corpus/$target" "$dir/findings/$target" "$dir/logs"
log="$dir/logs/$target.log"
limit=(-max_total_time="$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')")
[ "$limit" = "-max_total_time=0" ] && limit=(-runs=0)
status=0
nice "$dir/tests/fuzz/fuzz_$target" "$dir/corpus/$target" "tests/fuzz/corpus/$target" \
  -dict=tests/fuzz/tafel.dict "${limit[@]}" -print_final_stats=1 \
  -artifact_prefix="$dir/findings/$target/" "$@" 2>&1 | tee "$log" || status=$?
echo "fuzz: $target: $(summary "$log"); corpus $(ls "$dir/corpus/$target" | wc -l) files"
if [ "$status" -ne 0 ]; then
  echo "fuzz: $target: FINDING, saved in $dir/findings/$target/" >&2
fi
exit "$status"
