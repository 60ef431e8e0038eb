#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes real_squat.csv, the stand-in for a recorded Nao squat (not a measurement): a simulated
squat as a sensor would record it, 0.25 s late. Run from the repository root after building:

    python3 tests/gui/data/make_real_squat.py build/gapsim-cli > tests/gui/data/real_squat.csv

It has to be made again when the simulation of the squat changes: the GUI tests align it on the
knee and expect the 0.25 s back (tests/gui/overlays_test.cpp).
"""
import csv
import io
import random
import subprocess
import sys
import tempfile

DELAY_S = 0.25       # the recording starts this much after the simulation
GAIN = 1.15          # sensor gain
BIAS = 0.002         # sensor bias (in each column's unit)
NOISE_SIGMA = 0.001  # white noise (in each column's unit)
COLUMNS = ["torso/pitch_rad", "torso/roll_rad", "LKneePitch/q_rad", "RKneePitch/q_rad", "LFoot/force_N"]


def interpolate(t, ts, vs):
    """The piecewise-linear signal at t (the first value before the start: the robot stood still)."""
    if t <= ts[0]:
        return vs[0]
    for k in range(1, len(ts)):
        if ts[k] >= t:
            w = (t - ts[k - 1]) / (ts[k] - ts[k - 1])
            return vs[k - 1] + (vs[k] - vs[k - 1]) * w
    return vs[-1]


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else "build/gapsim-cli"
    with tempfile.NamedTemporaryFile(suffix=".csv") as f:
        subprocess.run([cli, "run", "--robot", "nao", "--motion", "robots/nao/motions/squat.csv", "--duration", "9",
                        "--out", f.name, "--force"], check=True, stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(line for line in io.open(f.name) if not line.startswith("#")))
    ts = [float(r["time_s"]) for r in rows]
    sim = {c: [float(r[c]) for r in rows] for c in COLUMNS}
    rng = random.Random(1)
    out = sys.stdout
    out.write("# Stand-in for a recorded Nao squat (tests and README), not a measurement: gapsim-cli run of\n")
    out.write("# robots/nao/motions/squat.csv, every signal delayed by %g s, scaled by %g, %+g bias, noise %g\n"
              % (DELAY_S, GAIN, BIAS, NOISE_SIGMA))
    out.write("# (tests/gui/data/make_real_squat.py).\n")
    out.write("time_s," + ",".join(COLUMNS) + "\n")
    for t in ts:
        values = [GAIN * interpolate(t - DELAY_S, ts, sim[c]) + BIAS + rng.gauss(0.0, NOISE_SIGMA) for c in COLUMNS]
        out.write("%g," % t + ",".join("%.6g" % v for v in values) + "\n")


if __name__ == "__main__":
    main()
