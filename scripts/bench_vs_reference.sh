#!/usr/bin/env bash
# Runs gapsim's standing-Nao benchmark and the raw-ODE reference program of
# ../shared/reference-bench alternately, several times each, and prints the ratio of their
# per-step costs. The machines are noisy (+-30%), so only interleaved runs are compared.
# Two comparisons: gapsim at its defaults (the plain Nao runs the robot file's iterations_plain)
# against the reference as it ships (QuickStep 20), and both at QuickStep 20, which leaves only
# the models' rows and gapsim's own code to differ.
# usage: scripts/bench_vs_reference.sh [rounds=4]
#        scripts/bench_vs_reference.sh --instructions
#   --instructions: instead of timing, counts the instructions each side executes per step under
#   valgrind's callgrind (Debian: valgrind). The count does not move with the machine's load, so
#   the ratio is the same on every run; it leaves out what timing includes (cache misses, branch
#   prediction), so it complements the CPU ratio and does not replace it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REF_SRC=${GAPSIM_REFERENCE_BENCH:-../shared/reference-bench}
[ -f "$REF_SRC/ode_bench.cpp" ] || { echo "no reference program at $REF_SRC (set GAPSIM_REFERENCE_BENCH)"; exit 2; }
REF_BIN=${TMPDIR:-/tmp}/gapsim_ode_reference
g++ -O2 -o "$REF_BIN" "$REF_SRC/ode_bench.cpp" $(pkg-config --cflags --libs ode)
[ -x build/gapsim-cli ] || bash scripts/setup.sh >/dev/null
if [ "${1:-}" = "--instructions" ]; then
  command -v valgrind >/dev/null || { echo "--instructions needs valgrind (Debian: apt-get install valgrind)" >&2; exit 2; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # inclusive instruction count of one function, from a callgrind profile
  # (awk reads to the end: exiting early would end callgrind_annotate with SIGPIPE, which pipefail
  # turns into a failure of the script)
  incl() { callgrind_annotate --inclusive=yes "$1" | awk -v f="$2" '!done && index($0, f) {gsub(",", "", $1); print $1; done = 1}'; }
  # The reference runs its 10 s stand twice (a warm-up, then one repetition): 20 000 steps of
  # collision, controller and QuickStep 20 in run_once.
  valgrind --tool=callgrind --callgrind-out-file="$tmp/ref.out" "$REF_BIN" stand quick 0 1 20 >/dev/null 2>&1
  r_all=$(incl "$tmp/ref.out" "run_once(") r_qs=$(incl "$tmp/ref.out" ":dWorldQuickStep ")
  # gapsim: the standing Nao, ideal servos (plain), 10 s = 10 000 steps of Simulation::step
  # (drives, collision, QuickStep, checks); at the file's iterations and at the reference's 20.
  for it in defaults 20; do
    extra=(); [ "$it" = defaults ] || extra=(--iterations "$it")
    valgrind --tool=callgrind --callgrind-out-file="$tmp/gap.out" ./build/gapsim-cli run --robot nao --plain \
        "${extra[@]}" --duration 10 --quiet >/dev/null 2>&1
    g_all=$(incl "$tmp/gap.out" "gapsim::Simulation::step()") g_qs=$(incl "$tmp/gap.out" ":dWorldQuickStep ")
    awk -v ra="$r_all" -v rq="$r_qs" -v ga="$g_all" -v gq="$g_qs" -v it="$it" 'BEGIN {
      printf "instructions per step: raw-ODE reference %.0f (QuickStep 20: %.0f); gapsim standing Nao plain, %s iterations, %.0f (QuickStep %.0f)\n", ra / 20000, rq / 20000, it, ga / 10000, gq / 10000
      printf "  gapsim/reference = %.3f per step, %.3f in QuickStep alone%s\n", (ga / 10000) / (ra / 20000), (gq / 10000) / (rq / 20000), (it == "defaults" ? " (target <= 1.1)" : "") }'
  done
  exit 0
fi
ROUNDS=${1:-4}
gap=() gap20=() full=() ref=()
# Thread-CPU time on both sides (gapsim bench's "cpu us/step", the reference's "cpu median" of a
# 10 s run), so that machine load does not enter the ratio.
for ((i = 0; i < ROUNDS; i++)); do
  out=$(./build/gapsim-cli bench --robot nao --reps 1 --duration 10 --standing-only)
  g=$(awk '/standing, plain/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)+0}' <<<"$out")
  f=$(awk '/standing, full/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)+0}' <<<"$out")
  out=$(./build/gapsim-cli bench --robot nao --reps 1 --duration 10 --standing-only --plain-only --plain-iterations 20)
  g20=$(awk '/standing, plain/ {for (k=1;k<=NF;k++) if ($k=="us/step") print $(k+1)+0}' <<<"$out")
  r=$("$REF_BIN" stand quick 0 1 20 2>/dev/null | awk '/SUMMARY/ {for (k=1;k<=NF;k++) if ($k=="cpu") print $(k+2) / 10000 * 1e6}')
  echo "round $i: raw-ODE reference ${r} us/step; gapsim standing Nao plain ${g} us/step (ratio $(awk -v a="$g" -v b="$r" 'BEGIN{printf "%.3f", a/b}')), at 20 iterations ${g20} us/step (ratio $(awk -v a="$g20" -v b="$r" 'BEGIN{printf "%.3f", a/b}')), full pipeline ${f} us/step (ratio $(awk -v a="$f" -v b="$r" 'BEGIN{printf "%.3f", a/b}'))"
  gap+=("$g") gap20+=("$g20") full+=("$f") ref+=("$r")
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
gm=$(med "${gap[@]}") g20m=$(med "${gap20[@]}") fm=$(med "${full[@]}") rm_=$(med "${ref[@]}")
echo "median: reference ${rm_} us/step; gapsim plain ${gm} us/step, gapsim/reference = $(awk -v a="$gm" -v b="$rm_" 'BEGIN{printf "%.3f", a/b}') (target <= 1.1)"
echo "        gapsim plain at the reference's 20 iterations ${g20m} us/step, gapsim/reference = $(awk -v a="$g20m" -v b="$rm_" 'BEGIN{printf "%.3f", a/b}')"
echo "        gapsim full pipeline ${fm} us/step, speed relative to the reference = $(awk -v a="$fm" -v b="$rm_" 'BEGIN{printf "%.2f", b/a}')x (stretch: 1.8x)"
