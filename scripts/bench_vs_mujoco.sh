#!/usr/bin/env bash
# The Nao's 200 mm/s walk in gapsim (full pipeline at the robot file's defaults, and --plain) and
# in MuJoCo (build/gapsim-mujoco-walk: the same robot, motion and ankle balance, see
# bench/mujoco_walk.cpp), run alternately `rounds` times. Each run's CPU time (user + system, whole
# process: loading included on both sides) is measured with /usr/bin/time; the script prints each
# side's median real-time factor (simulated s / CPU s) and the speed ratios rtf_gapsim / rtf_mujoco.
# The machines are noisy (+-30%), so only interleaved runs are compared.
# usage: scripts/bench_vs_mujoco.sh [rounds=3]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=${1:-3}
MOTION=robots/nao/motions/walk_200mm_s_1s.csv
[ -x build/gapsim-cli ] || bash scripts/setup.sh >/dev/null
[ -x build/gapsim-mujoco-walk ] || { echo "no build/gapsim-mujoco-walk (install libmujoco-dev and rebuild)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)"; exit 2; }

# measure NAME CMD...: runs CMD, prints "sim_s cpu_s rtf" and echoes CMD's summary line to stderr.
measure() {
  local name=$1 out tfile cpu sim
  shift
  tfile=$(mktemp)
  out=$(/usr/bin/time -o "$tfile" -f '%U+%S' "$@")
  cpu=$(awk -F+ '{print $1 + $2}' "$tfile")
  rm -f "$tfile"
  sim=$(grep -o 'sim_time_s=[0-9.]*' <<<"$out" | tail -1 | cut -d= -f2)
  [ -n "$sim" ] || { echo "$name: no sim_time_s in its output:" >&2; echo "$out" >&2; exit 1; }
  echo "  $name: $(grep 'sim_time_s=' <<<"$out" | tail -1) cpu(time)=${cpu}s" >&2
  awk -v s="$sim" -v c="$cpu" 'BEGIN{printf "%s %s %.3f\n", s, c, (c > 0 ? s / c : 0)}'
}

full=() plain=() mujoco=()
for ((i = 0; i < ROUNDS; i++)); do
  echo "round $i:" >&2
  r=$(measure "gapsim full " ./build/gapsim-cli run --robot nao --motion "$MOTION" --quiet)
  full+=("$(cut -d' ' -f3 <<<"$r")")
  r=$(measure "gapsim plain" ./build/gapsim-cli run --robot nao --motion "$MOTION" --quiet --plain)
  plain+=("$(cut -d' ' -f3 <<<"$r")")
  r=$(measure "MuJoCo      " ./build/gapsim-mujoco-walk --robot nao --motion "$MOTION")
  mujoco+=("$(cut -d' ' -f3 <<<"$r")")
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
fm=$(med "${full[@]}") pm=$(med "${plain[@]}") mm=$(med "${mujoco[@]}")
echo "median real-time factor (simulated s / CPU s) over $ROUNDS rounds:"
echo "  gapsim full pipeline  $fm"
echo "  gapsim --plain        $pm"
echo "  MuJoCo                $mm"
echo "speed ratio gapsim-full/MuJoCo  = $(awk -v a="$fm" -v b="$mm" 'BEGIN{printf "%.3f", a/b}')"
echo "speed ratio gapsim-plain/MuJoCo = $(awk -v a="$pm" -v b="$mm" 'BEGIN{printf "%.3f", a/b}')"
