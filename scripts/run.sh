#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the main job. Until the Qt GUI
# lands (issue 4) the main job is the headless demo: the Nao stands, squats and rises, prints
# its summary and writes gapsim_demo_nao.csv.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh -DGAPSIM_BUILD_TESTS=OFF -DGAPSIM_BUILD_BENCH=OFF
echo "gapsim: no GUI yet in this version; running the headless demo"
exec ./build/gapsim-cli demo "$@"
