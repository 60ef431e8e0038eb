#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Rewrites the example recording sets (docs/recordings.md) with gapsim-cli record: stand-ins for
# real recordings of other tasks and robots, made by the simulator itself.
#   examples/recordings/make.sh [build/gapsim-cli]
set -euo pipefail
cli=$(realpath "${1:-build/gapsim-cli}")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cd "$src"
rm -rf "$here/bioloid_squat" "$here/bioloid_rising" "$here/nao_squat" "$here/mabel_swing"
# BIOLOID squat: a second task besides lean-to-stand, angles in degrees, 50 Hz frames.
"$cli" record --robot bioloid --motion robots/bioloid/motions/squat.csv --out "$here/bioloid_squat" \
  --name squat-01 --units deg --frame-rate 50 --role train --tag squat
"$cli" record --robot bioloid --motion robots/bioloid/motions/squat.csv --out "$here/bioloid_squat" \
  --name squat-02 --units deg --frame-rate 25 --duration 4 --role validate --tag squat
# BIOLOID rising from a seat and from the knees (the shipped controllers, as `gapsim-cli rise`
# plays them): each trial starts from its task's pose and scene, stated in the manifest.
"$cli" record --robot bioloid --task sit --controller robots/bioloid/controllers/sit.csv \
  --out "$here/bioloid_rising" --name sit-01 --frame-rate 60 --role train --tag rising --tag sit
"$cli" record --robot bioloid --task kneel --controller robots/bioloid/controllers/kneel.csv \
  --out "$here/bioloid_rising" --name kneel-01 --units deg --frame-rate 60 --role validate --tag rising --tag kneel
# Nao squat, rad, 30 Hz.
"$cli" record --robot nao --motion robots/nao/motions/squat.csv --out "$here/nao_squat" \
  --name squat-01 --frame-rate 30 --duration 6 --tag squat
# MABEL leg swing on its boom, rad, 50 Hz, the first 5 s.
"$cli" record --robot mabel --motion robots/mabel/motions/leg_swing.csv --out "$here/mabel_swing" \
  --name swing-01 --frame-rate 50 --duration 5 --tag swing
# The manifests name robots by their shipped names and files relative to themselves.
