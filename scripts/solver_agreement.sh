#!/usr/bin/env bash
# Does the default solver set-up give the model's outcome? Plays every shipped Nao motion and the
# walk envelope (generated walks from 50 to 250 mm/s, gait cycles 0.6-2 s, sideways and turning)
# with the robot file's solver (QuickStep) and with dWorldStep (--stepper big, exact LCP), plain
# and full pipeline, at the defaults otherwise (the controller the motion names), and prints one
# table: fell or not, distance and heading, and the relative distance difference.
#
#   scripts/solver_agreement.sh [CLI] [--shipped-only]     (CLI defaults to build/gapsim-cli)
#
# About 10 minutes on 2 cores (dWorldStep on the full pipeline runs near real time).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cli="${1:-build/gapsim-cli}"
only_shipped=0; [[ "${2:-}" == "--shipped-only" || "${1:-}" == "--shipped-only" ]] && only_shipped=1
[[ "$cli" == "--shipped-only" ]] && cli=build/gapsim-cli
fast_note=0
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

motions=()
for m in walk_200mm_s_1s walk_100mm_s_1.5s walk_150mm_s_0.8s walk_50mm_s_2s kick squat; do
  motions+=("$m|robots/nao/motions/$m.csv")
done
if ((!only_shipped)); then
  # name | gapsim-cli walk arguments
  envelope=(
    "env_050_2.0|--speed 0.05 --step-duration 2.0 --steps 8"
    "env_100_1.0|--speed 0.10 --step-duration 1.0 --steps 12"
    "env_150_1.0|--speed 0.15 --step-duration 1.0 --steps 12"
    "env_200_0.8|--speed 0.20 --step-duration 0.8 --steps 16"
    "env_250_1.0|--speed 0.25 --step-duration 1.0 --steps 12"
    "env_100_0.6|--speed 0.10 --step-duration 0.6 --steps 20"
    "env_side_50|--speed 0 --params lateral_speed=0.05 --step-duration 1.0 --steps 12"
    "env_turn_0.2|--speed 0.1 --params turn_rate=0.2 --step-duration 1.0 --steps 12"
  )
  for e in "${envelope[@]}"; do
    IFS='|' read -r name args <<< "$e"
    # shellcheck disable=SC2086
    if "$cli" walk $args --out "$work/$name.csv" > "$work/$name.gen" 2>&1; then
      # '*': the generator notes joint targets faster than the drives' no-load speed (docs/walk.md).
      if grep -q "note:" "$work/$name.gen"; then motions+=("$name*|$work/$name.csv"); fast_note=1
      else motions+=("$name|$work/$name.csv"); fi
    else echo "$name: the generator refuses it: $(tail -1 "$work/$name.gen")"; fi
  done
fi

value() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<< "$2"; }
printf '%-20s %-5s | %-8s %9s %8s | %-8s %9s %8s | %7s %7s\n' motion pipe "fell" "dist_m" "head_deg" "fell_big" "dist_m" "head_deg" "d_dist" "agree"
for m in "${motions[@]}"; do
  IFS='|' read -r name path <<< "$m"
  for pipe in full plain; do
    flag=""; [[ $pipe == plain ]] && flag="--plain"
    # shellcheck disable=SC2086
    "$cli" run --robot nao --motion "$path" $flag --quiet > "$work/q.txt" 2>&1 &
    # shellcheck disable=SC2086
    "$cli" run --robot nao --motion "$path" $flag --stepper big --quiet > "$work/b.txt" 2>&1
    wait
    q=$(tail -1 "$work/q.txt"); b=$(tail -1 "$work/b.txt")
    fq=$(value fell "$q"); dq=$(value distance_m "$q"); hq=$(value heading_deg "$q")
    fb=$(value fell "$b"); db=$(value distance_m "$b"); hb=$(value heading_deg "$b")
    read -r dd agree < <(python3 -c "
fq,fb='$fq','$fb'; dq,db=float('$dq'),float('$db'); hq,hb=float('$hq'),float('$hb')
rel=(dq-db)/db if db>0.05 else 0.0
ok=(fq=='no')==(fb=='no') and (abs(rel)<=0.03 or db<=0.05) and abs(hq-hb)<=max(3.0,0.03*abs(hb))
print(f'{100*rel:+.1f}%', 'yes' if ok else 'NO')")
    printf '%-20s %-5s | %-8s %9s %8s | %-8s %9s %8s | %7s %7s\n' "$name" "$pipe" "$fq" "$dq" "$hq" "$fb" "$db" "$hb" "$dd" "$agree"
  done
done
((fast_note)) && echo "* the walk asks joints to turn faster than their drives can (gapsim-cli walk notes it; docs/walk.md)"
exit 0
