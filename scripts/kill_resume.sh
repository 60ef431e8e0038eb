#!/usr/bin/env bash
# Kills calibrations, optimize-controller runs and sim-to-reality loops with `kill -9` at random
# moments, resumes each and checks that its files equal those of the run never killed, byte for
# byte (tests/app/kill_resume_test.sh --random; ctest's kill_resume_* tests stop the same runs at
# every file commit instead).
#   scripts/kill_resume.sh [COUNT] [COMMAND...]   COUNT kills per command (default 20); commands
#                                                  calibrate, optimize-controller, loop (default all)
# Uses build/gapsim-cli (GAPSIM_BUILD_DIR to choose another build). Exit 1 if any run differs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count="${1:-20}"
shift || true
commands=("$@")
((${#commands[@]})) || commands=(calibrate optimize-controller loop)
cli="${GAPSIM_BUILD_DIR:-build}/gapsim-cli"
[[ -x "$cli" ]] || { echo "kill_resume: $cli is missing: build first (scripts/setup.sh)" >&2; exit 2; }
fail=0
for c in "${commands[@]}"; do
  bash tests/app/kill_resume_test.sh "$cli" "$c" --random "$count" || fail=1
done
exit "$fail"
