#!/usr/bin/env bash
# The BIOLOID GP with the AX-18A model identified on the real ankle step tests (docs/servo_models.md:
# M1 fitted on all three slopes; armature 0.00215 kg m^2, effective no-load speed 11.07 rad/s, delay
# 2 ms, tau_c 0.060 N m) at compliance slope S, in place of the paper law of bioloid_paper_law.urdf.
# At slope 128 the file is bioloid.urdf's model (the same drive, so the same runs).
# Writes that robot file, then replays the 56 real lean-to-stand trials (--settle 0.5), plays every
# shipped rising controller and the shipped motions on it, and prints one line per result.
#
#   scripts/bioloid_identified_servo.sh [--slope 32] [--cli build/gapsim-cli] [--out DIR] [--no-replay]
#                                       [--params FILE]
#
# --params FILE: the replay also runs with FILE's values, its servos/... entries dropped (they are
# the paper law's and do not exist for the voltage drive): e.g. the calibration's contact, torso
# and wall values with robots/bioloid/calibration/lean_calibrated_paper_law.params.
# The replay needs ../shared/real-data/bioloid (about 4 min on one core); --no-replay skips it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

slope=32
cli=build/gapsim-cli
out=
replay=1
params_file=
while (($#)); do
  case "$1" in
    --slope) slope=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-replay) replay=0; shift ;;
    --params) params_file=$2; shift 2 ;;
    *) echo "usage: $0 [--slope S] [--cli PATH] [--out DIR] [--no-replay] [--params FILE]" >&2; exit 2 ;;
  esac
done
[ -x "$cli" ] || { echo "$0: no gapsim-cli at $cli (build it, or --cli PATH)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
robot="$out/bioloid_ax18_slope$slope.urdf"

# The file's one drivetrain line becomes the voltage-domain drive with the identified values.
params="<param name=\"servo/armature\" value=\"0.00215\"/><param name=\"servo/no_load_speed\" value=\"11.07\"/>"
params+="<param name=\"servo/delay_s\" value=\"0.002\"/><param name=\"servo/friction/tau_c\" value=\"0.060\"/>"
params+="<param name=\"servo/cw_slope\" value=\"$slope\"/><param name=\"servo/ccw_slope\" value=\"$slope\"/>"
sed -E "s|<drivetrain name=\"servos\" type=\"dynamixel\" joints=\"([^\"]*)\"/>|<drivetrain name=\"servos\" type=\"dynamixel_voltage\" preset=\"AX-18\" joints=\"\\1\">$params</drivetrain>|" \
  robots/bioloid/bioloid_paper_law.urdf > "$robot"
grep -q 'type="dynamixel_voltage"' "$robot" || { echo "$0: the drivetrain line of robots/bioloid/bioloid_paper_law.urdf was not found" >&2; exit 1; }
echo "robot file: $robot"

for c in robots/bioloid/controllers/*.csv; do
  name=$(basename "$c" .csv)
  task=${name%%_*}
  echo "rise $name (task $task): $("$cli" rise --robot "$robot" --task "$task" --controller "$c" | tail -1)"
done
for m in robots/bioloid/motions/*.csv; do
  echo "run $(basename "$m"): $("$cli" run --robot "$robot" --motion "$m" --out /dev/null 2>/dev/null | tail -1)"
done
if ((replay)); then
  echo "replay: $("$cli" replay --recordings ../shared/real-data/bioloid --settle 0.5 --robot "$robot" | tail -1)"
  if [ -n "$params_file" ]; then
    kept="$out/$(basename "$params_file" .params)_without_servos.params"
    grep -v '^servos/' "$params_file" > "$kept"
    echo "replay with $kept: $("$cli" replay --recordings ../shared/real-data/bioloid --settle 0.5 --robot "$robot" \
      --params "$kept" | tail -1)"
  fi
fi
