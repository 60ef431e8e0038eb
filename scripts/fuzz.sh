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
#                                                shipped files, kept in build-fuzz/corpus/<target>/
#   BUILD=build-asan scripts/fuzz.sh 3600       the same against the sanitizer build
#                                                (scripts/test.sh --sanitize builds it)
#   ONLY=urdf scripts/fuzz.sh 300               only targets whose name starts with urdf
#   JOBS=2: campaigns in parallel, seeds SEED, SEED+1, ...
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
  rc=0
  for t in "${!seeds[@]}"; do
    cmake --build build-fuzz -j"$(nproc)" --target "fuzz_$t" > /dev/null
    corpus="build-fuzz/corpus/$t"; found="${FUZZ_OUT:-$here/fuzz-failures}/libfuzzer/$t"
    mkdir -p "$corpus" "$found"
    # shellcheck disable=SC2086
    cp -n ${seeds[$t]} "$corpus/" 2>/dev/null || true
    echo "fuzz: libFuzzer $t for $per s"
    ASAN_OPTIONS=detect_leaks=1 "build-fuzz/fuzz/fuzz_$t" "$corpus" -max_total_time="$per" -timeout=20 \
        -rss_limit_mb=4096 -artifact_prefix="$found/" -print_final_stats=1 > "$found.log" 2>&1 || rc=1
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov:|ERROR|SUMMARY" "$found.log" | tail -4
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
echo "fuzz: $jobs campaign(s) of $seconds s from seed $seed against $build/gapsim-cli; failures kept in $out"
pids=()
for ((k = 0; k < jobs; ++k)); do
  "$build/gapsim-cli-fuzz" --cli "$build/gapsim-cli" --source "$here" --seed $((seed + k)) --seconds "$seconds" \
      --keep "$out" ${ONLY:+--only "$ONLY"} "${mem[@]}" > "$out.$((seed + k)).log" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
for ((k = 0; k < jobs; ++k)); do grep -E "^(FAIL|gapsim-cli-fuzz:|[0-9]+ passed)" "$out.$((seed + k)).log" || true; done
echo "fuzz: replaying the kept regressions"
"$build/gapsim-cli-fuzz" --cli "$build/gapsim-cli" --source "$here" --replay tests/fuzz/regressions "${mem[@]}" | tail -2 || rc=1
exit $rc
