#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Writes the SYNTHETIC reference logs of the misspecified twin into reference/ (deterministic:
# byte-identical files on every run). GAPSIM_CLI=path/to/gapsim-cli (default build/gapsim-cli).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="${GAPSIM_CLI:-$here/../../../build/gapsim-cli}"
"$cli" twin --robot nao --params "$here/hidden.params" --scenarios "$here/scenarios.csv" \
  --out "$here/reference" --force \
  --command-delay 0.01 --sensor-delay 0.01 --backlash 0.005 \
  --stribeck-ratio 1.5 --stribeck-velocity 0.1 \
  --mass-offset "torso=0.15;LThigh=0.03;RThigh=0.03" --com-offset "torso=0.01:0:0.005" \
  --imu-bias 0.01 --gyro-bias 0.005 --imu-noise 0.002
