#!/usr/bin/env bash
# README command 1: install what is missing, build, and open the desktop application with the
# Nao loaded. Without a display ($DISPLAY and $WAYLAND_DISPLAY empty) it says so and runs the
# headless demo instead: the Nao walks 200 mm/s for 15 s, prints its summary and writes
# (replaces) gapsim_demo_nao.csv. Arguments go to whichever runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# A fresh build tree gets only the applications; an existing one keeps its options, so that this
# command does not switch off the tests of a tree that README command 2 (scripts/test.sh) built.
opts=()
[ -f "${GAPSIM_BUILD_DIR:-build}/CMakeCache.txt" ] || opts=(-DGAPSIM_BUILD_TESTS=OFF -DGAPSIM_BUILD_BENCH=OFF)
bash scripts/setup.sh "${opts[@]}"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/gapsim --robot nao "$@"
fi
echo "gapsim: no display (\$DISPLAY and \$WAYLAND_DISPLAY are empty), so no window; running the headless demo."
echo "gapsim: for the GUI without a display: xvfb-run -a -s \"-screen 0 1280x800x24\" build/gapsim --robot nao --motion robots/nao/motions/walk_200mm_s_1s.csv --play-for 12 --follow --screenshot view.png --quit"
exec ./build/gapsim-cli demo --force "$@"
