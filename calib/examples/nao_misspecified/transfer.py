#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What a calibration's best.params predicts on the held-out scenarios, by yardsticks common to
every objective (docs/calibration.md, "Objectives on the misspecified twin"):

  F        sum over the held-out scenarios of F (m = 5), from the run's summary.csv;
  tilt     mean over the held-out scenarios of the torso tilt RMS sqrt(E_s / duration_s) (rad),
           E_s from summary.csv (the tilt's squared error integral);
  distance mean over the held-out scenarios of |d_sim - d_ref| (mm), d the horizontal distance the
           torso (`torso/x_m`, `torso/y_m`) moved from the first to the last sample of the log:
           best_<scenario>.csv of the run against reference/<scenario>.csv.

The defaults' distance comes from `gapsim-cli run` of each held-out motion with the scenario's
balance and duration (GAPSIM_CLI, default build/gapsim-cli), written to a temporary directory.

usage: transfer.py RUN_DIR [RUN_DIR ...]
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("GAPSIM_CLI", os.path.join(HERE, "..", "..", "..", "build", "gapsim-cli"))


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def distance_m(log_path):
    r = rows(log_path)
    x0, y0 = float(r[0]["torso/x_m"]), float(r[0]["torso/y_m"])
    x1, y1 = float(r[-1]["torso/x_m"]), float(r[-1]["torso/y_m"])
    return math.hypot(x1 - x0, y1 - y0)


def main(dirs):
    scenarios = {s["name"]: s for s in rows(os.path.join(HERE, "scenarios.csv"))}
    held = [n for n, s in scenarios.items() if s["role"] == "holdout"]
    d_ref = {n: distance_m(os.path.join(HERE, scenarios[n]["reference"])) for n in held}
    d_init = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in held:
            s = scenarios[n]
            out = os.path.join(tmp, n + ".csv")
            subprocess.run([CLI, "run", "--robot", "nao", "--quiet", "--motion", os.path.join(HERE, s["motion"]),
                            "--balance", s["balance"].replace(";", ","), "--duration", s["duration_s"], "--out", out],
                           check=True, stdout=subprocess.DEVNULL)
            d_init[n] = distance_m(out)
    print("run,F_initial,F_best,F_change_%,tilt_rms_initial_rad,tilt_rms_best_rad,tilt_change_%,"
          "distance_err_initial_mm,distance_err_best_mm,distance_change_%,held_out_falls")
    for d in dirs:
        summary = {r["scenario"]: r for r in rows(os.path.join(d, "summary.csv"))}
        F0 = sum(float(summary[n]["F_initial"]) for n in held)
        F1 = sum(float(summary[n]["F_best"]) for n in held)
        tilt = lambda col: sum(math.sqrt(float(summary[n][col]) / float(scenarios[n]["duration_s"]))
                               for n in held) / len(held)
        t0, t1 = tilt("E_initial"), tilt("E_best")
        e0 = sum(abs(d_init[n] - d_ref[n]) for n in held) / len(held) * 1e3
        e1 = sum(abs(distance_m(os.path.join(d, "best_" + n + ".csv")) - d_ref[n]) for n in held) / len(held) * 1e3
        falls = sum(float(summary[n]["fall_best_s"]) >= 0 for n in held)
        pct = lambda a, b: 100.0 * (b - a) / a
        print(f"{d},{F0:.4g},{F1:.4g},{pct(F0, F1):+.1f},{t0:.4g},{t1:.4g},{pct(t0, t1):+.1f},"
              f"{e0:.1f},{e1:.1f},{pct(e0, e1):+.1f},{falls}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
