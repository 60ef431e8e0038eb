#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build everything, run every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh -DGAPSIM_BUILD_TESTS=ON -DGAPSIM_BUILD_BENCH=ON
cd "${GAPSIM_BUILD_DIR:-build}"
ctest --output-on-failure -j"${GAPSIM_JOBS:-$(nproc)}" --timeout 900
