#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A long mutation campaign over the shipped inputs through gapsim-cli (tests/fuzz/cli_fuzz.cpp):
# every mutant is run with a CPU and a wall-clock limit and fails on a signal, a hang, an exit code
# other than 0/2/3, or an exit 2 whose message lacks the file and line. ctest runs a short one
# (cli_fuzz_short: seed 1, 300 mutants) and replays tests/fuzz/regressions/ on every test run.
#
# Usage: scripts/fuzz.sh [SECONDS] [SEED]        (default 600 s, seed from the clock)
#   scripts/fuzz.sh --libfuzzer [SECONDS]       libFuzzer on each parser (tests/fuzz/parser_fuzz.cpp),
#                                                SECONDS per target (default 60), built with clang in
#                                                build-fuzz/ (ASan + UBSan); corpora seeded from the
#                                                shipped files, kept in build-fuzz/corpus/<target>/;
#                                                ends with a table per target (executions, exec/s,
#                                                corpus files, cov, ft, findings)
#   BUILD=build-asan scripts/fuzz.sh 3600       the same against the sanitizer build
#                                                (scripts/test.sh --sanitize builds it)
#   ONLY=urdf scripts/fuzz.sh 300               only targets whose name starts with urdf (both modes)
#   RUNS=3000 scripts/fuzz.sh 0 7               exactly 3000 mutants from seed 7 (SECONDS ignored):
#                                                the same mutants on any machine, however loaded
#   JOBS=2: campaigns in parallel, seeds SEED, SEED+1, ...; with --libfuzzer, 2 targets at a time
# Failing mutants are kept in fuzz-failures/<target>/ with a .txt of the command and the output;
# once fixed, move each into tests/fuzz/regressions/<target>/ (the .txt may stay beside it).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--libfuzzer" ]; then
  per="${2:-60}"
  cd "$here"
  command -v clang++ >/dev/null || { echo "fuzz: --libfuzzer needs clang++ (Debian: apt-get install clang)" >&2; exit 2; }
  CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release -DGAPSIM_LIBFUZZER=ON -DGAPSIM_BUILD_TESTS=OFF \
      -DGAPSIM_BUILD_BENCH=OFF > /dev/null
  declare -A seeds=(
    [urdf]="robots/*/*.urdf robots/*/identification/*.urdf tests/sim/data/*.urdf tests/app/data/*.urdf"
    [robot_step]="robots/bioloid/bioloid.urdf tests/sim/data/pendulum.urdf robots/bioloid/identification/ankle_r_foot.urdf"
    [motion_csv]="robots/*/motions/*.csv tests/sim/data/timeseries/motion_*.csv"
    [joint_table]="tests/sim/data/timeseries/walk_table*.csv"
    [webots]="robots/nao/motions/*.motion tests/sim/data/timeseries/*.motion"
    [mtn]="tests/sim/data/mtn/*.mtn"
    [params]="calib/examples/*/hidden.params robots/bioloid/calibration/*.params tests/gui/data/*.params"
    [space]="calib/examples/*/space.csv robots/bioloid/calibration/*space.csv"
    [scenarios]="calib/examples/*/scenarios.csv tests/fuzz/fixtures/*.csv"
    [log]="tests/sim/data/timeseries/log_*.csv calib/examples/nao_twin/reference/*.csv"
    [controller]="robots/bioloid/controllers/*.csv"
    [servo_log]="tests/calib/data/ankle_r_foot_slope32.csv"
  )
  targets=()
  for t in $(printf '%s\n' "${!seeds[@]}" | sort); do
    [[ "$t" == "${ONLY:-}"* ]] && targets+=("$t")
  done
  ((${#targets[@]})) || { echo "fuzz: no libFuzzer target starts with ${ONLY:-}" >&2; exit 2; }
  cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" > /dev/null
  out="${FUZZ_OUT:-$here/fuzz-failures}/libfuzzer"
  one() {  # one target: libFuzzer for $per s on its corpus; its log is $out/<target>.log
    local t="$1" corpus="build-fuzz/corpus/$1" found="$out/$1"
    mkdir -p "$corpus" "$found"
    # shellcheck disable=SC2086
    cp -n ${seeds[$t]} "$corpus/" 2>/dev/null || true
    ASAN_OPTIONS=detect_leaks=1 "build-fuzz/fuzz/fuzz_$t" "$corpus" -max_total_time="$per" -timeout=20 \
        -rss_limit_mb=4096 -artifact_prefix="$found/" -print_final_stats=1 > "$found.log" 2>&1
  }
  jobs_="${JOBS:-1}"
  echo "fuzz: libFuzzer on ${#targets[@]} target(s), $per s each, $jobs_ at a time; logs in $out/"
  rc=0
  declare -A pid_of=()
  for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs_)); do wait -n || true; done
    one "$t" &
    pid_of[$t]=$!
  done
  for t in "${targets[@]}"; do wait "${pid_of[$t]}" || rc=1; done
  printf '%-11s %8s %11s %8s %7s %6s %6s %8s\n' target seconds executions exec/s corpus cov ft findings
  for t in "${targets[@]}"; do
    log="$out/$t.log"
    done_line=$(grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -1 || true)
    [ -n "$done_line" ] || done_line=$(grep -E "^#[0-9]+[[:space:]]" "$log" | tail -1 || true)
    field() { sed -nE "s|.* $1: ([0-9]+).*|\1|p" <<< "$done_line"; }
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
    secs=$(grep -m1 -oE "Done [0-9]+ runs in [0-9]+ second" "$log" | awk '{print $5}' || true)
    findings=$(find "$out/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' \
                    -o -name 'oom-*' -o -name 'slow-unit-*' \) | wc -l)
    grep -qE "^==[0-9]+==ERROR|^SUMMARY: |runtime error:" "$log" && findings="$findings+report" && rc=1
    [ "$findings" = 0 ] || rc=1
    printf '%-11s %8s %11s %8s %7s %6s %6s %8s\n' "$t" "${secs:-?}" "${execs:-?}" "${rate:-?}" \
        "$(find "build-fuzz/corpus/$t" -type f | wc -l)" "$(field cov)" "$(field ft)" "$findings"
  done
  exit $rc
fi
seconds="${1:-600}"
seed="${2:-$(date +%s)}"
build="${BUILD:-build}"
jobs="${JOBS:-1}"
out="${FUZZ_OUT:-$here/fuzz-failures}"
cd "$here"
if [ ! -x "$build/gapsim-cli-fuzz" ] || [ ! -x "$build/gapsim-cli" ]; then
  [ -d "$build" ] || { echo "fuzz: no build in $build (run scripts/test.sh first)" >&2; exit 2; }
  cmake --build "$build" -j"$(nproc)" --target gapsim-cli gapsim-cli-fuzz
fi
mem=()
[ "$build" = build-asan ] && mem=(--memory-limit 0)
length=(--seconds "$seconds") what="$seconds s"
[ -n "${RUNS:-}" ] && length=(--runs "$RUNS") what="$RUNS mutants"
echo "fuzz: $jobs campaign(s) of $what from seed $seed against $build/gapsim-cli; failures kept in $out"
pids=()
for ((k = 0; k < jobs; ++k)); do
  "$build/gapsim-cli-fuzz" --cli "$build/gapsim-cli" --source "$here" --seed $((seed + k)) \
      "${length[@]}" \
      --keep "$out" ${ONLY:+--only "$ONLY"} "${mem[@]}" > "$out.$((seed + k)).log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
for ((k = 0; k < jobs; ++k)); do grep -E "^(FAIL|gapsim-cli-fuzz:|[0-9]+ passed)" "$out.$((seed + k)).log" || true; done
echo "fuzz: replaying the kept regressions"
"$build/gapsim-cli-fuzz" --cli "$build/gapsim-cli" --source "$here" --replay tests/fuzz/regressions "${mem[@]}" | tail -2 || rc=1
exit $rc
