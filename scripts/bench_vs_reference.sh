#!/usr/bin/env bash
# Runs gapsim's standing-Nao benchmark and the raw-ODE reference program of
# ../shared/reference-bench alternately, several times each, and prints the ratio of their
# per-step costs. The machines are noisy (+-30%), so only interleaved runs are compared.
# usage: scripts/bench_vs_reference.sh [rounds=4]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=${1:-4}
REF_SRC=${GAPSIM_REFERENCE_BENCH:-../shared/reference-bench}
[ -f "$REF_SRC/ode_bench.cpp" ] || { echo "no reference program at $REF_SRC (set GAPSIM_REFERENCE_BENCH)"; exit 2; }
REF_BIN=${TMPDIR:-/tmp}/gapsim_ode_reference
g++ -O2 -o "$REF_BIN" "$REF_SRC/ode_bench.cpp" $(pkg-config --cflags --libs ode)
[ -x build/gapsim-cli ] || bash scripts/setup.sh >/dev/null
gap=() ref=()
for ((i = 0; i < ROUNDS; i++)); do
  g=$(./build/gapsim-cli bench --robot nao --reps 1 --duration 10 --plain-only | awk '/standing, plain/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)}')
  r=$("$REF_BIN" stand quick 0 1 20 2>/dev/null | awk '/SUMMARY/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)}')
  echo "round $i: gapsim standing Nao ${g} us/step, raw-ODE reference ${r} us/step, ratio $(awk -v a="$g" -v b="$r" 'BEGIN{printf "%.3f", a/b}')"
  gap+=("$g") ref+=("$r")
done
printf '%s\n' "${gap[@]}" | sort -n > /tmp/gapsim_g.txt
printf '%s\n' "${ref[@]}" | sort -n > /tmp/gapsim_r.txt
gm=$(awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}' /tmp/gapsim_g.txt)
rm_=$(awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}' /tmp/gapsim_r.txt)
echo "median: gapsim ${gm} us/step, reference ${rm_} us/step, gapsim/reference = $(awk -v a="$gm" -v b="$rm_" 'BEGIN{printf "%.3f", a/b}') (target <= 1.1)"
