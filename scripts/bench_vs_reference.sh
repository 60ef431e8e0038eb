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
gap=() full=() ref=()
# Thread-CPU time on both sides (gapsim bench's "cpu us/step", the reference's "cpu median" of a
# 10 s run), so that machine load does not enter the ratio.
for ((i = 0; i < ROUNDS; i++)); do
  out=$(./build/gapsim-cli bench --robot nao --reps 1 --duration 10 --standing-only --plain-iterations 20)
  g=$(awk '/standing, plain/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)+0}' <<<"$out")
  f=$(awk '/standing, full/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)+0}' <<<"$out")
  r=$("$REF_BIN" stand quick 0 1 20 2>/dev/null | awk '/SUMMARY/ {for (k=1;k<=NF;k++) if ($k=="cpu") print $(k+2) / 10000 * 1e6}')
  echo "round $i: raw-ODE reference ${r} us/step; gapsim standing Nao plain ${g} us/step (ratio $(awk -v a="$g" -v b="$r" 'BEGIN{printf "%.3f", a/b}')), full pipeline ${f} us/step (ratio $(awk -v a="$f" -v b="$r" 'BEGIN{printf "%.3f", a/b}'))"
  gap+=("$g") full+=("$f") ref+=("$r")
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
gm=$(med "${gap[@]}") fm=$(med "${full[@]}") rm_=$(med "${ref[@]}")
echo "median: reference ${rm_} us/step; gapsim plain ${gm} us/step, gapsim/reference = $(awk -v a="$gm" -v b="$rm_" 'BEGIN{printf "%.3f", a/b}') (target <= 1.1)"
echo "        gapsim full pipeline ${fm} us/step, speed relative to the reference = $(awk -v a="$fm" -v b="$rm_" 'BEGIN{printf "%.2f", b/a}')x (stretch: 1.8x)"
