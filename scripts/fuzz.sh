#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A long mutation campaign over the shipped inputs through gapsim-cli (tests/fuzz/cli_fuzz.cpp):
# every mutant is run with a CPU and a wall-clock limit and fails on a signal, a hang, an exit code
# other than 0/2/3, or an exit 2 whose message lacks the file and line. ctest runs a short one
# (cli_fuzz_short: seed 1, 300 mutants) and replays tests/fuzz/regressions/ on every test run.
#
# Usage: scripts/fuzz.sh [SECONDS] [SEED]        (default 600 s, seed from the clock)
#   BUILD=build-asan scripts/fuzz.sh 3600       the same against the sanitizer build
#                                                (scripts/test.sh --sanitize builds it)
#   ONLY=urdf scripts/fuzz.sh 300               only targets whose name starts with urdf
#   JOBS=2: campaigns in parallel, seeds SEED, SEED+1, ...
# Failing mutants are kept in fuzz-failures/<target>/ with a .txt of the command and the output;
# once fixed, move each into tests/fuzz/regressions/<target>/ (the .txt may stay beside it).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
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
