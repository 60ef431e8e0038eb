#!/usr/bin/env python3
"""How many QuickStep iterations does each Nao configuration need?

Runs `gapsim-cli run` for every (configuration, motion, iteration count) and compares it with the
exact LCP solver (dWorldStep, `--stepper big`) of the same configuration and motion:

  max_tilt_deg     torso tilt, maximum over the run (falls show here)
  fell             time of the fall (tilt > 60 deg) or "no"
  leg_err_deg      RMS of q_target - q over the 12 leg joints and all samples (tracking)
  vs_exact_deg     RMS of q - q_exact over the leg joints (solver error against dWorldStep)
  dx_mm            torso x travel (walks)

Usage: scripts/iterations_study.py CLI [--iterations 10,15,20,30,40] [--motions stand,squat.csv]
       [--configs full,rigid,plain] [--set name=value ...]
CLI is the gapsim-cli binary. Writes a Markdown table to stdout. Figures only, no assertions.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

LEGS = [s + j for s in ("L", "R") for j in ("HipYawPitch", "HipRoll", "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll")]


def run(cli, config, motion, iterations, sets, out):
    cmd = [cli, "run", "--robot", "nao", "--quiet", "--out", out, "--force", "--log-period", "0.01"]
    if motion != "stand":
        cmd += ["--motion", motion]
    else:
        cmd += ["--duration", "10"]
    if iterations == "big":
        cmd += ["--stepper", "big"]
    else:
        cmd += ["--stepper", "quick", "--iterations", str(iterations)]
    if config == "plain":
        cmd += ["--plain"]
    elif config == "rigid":
        cmd += ["--set", "legs/soft/segments=1"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    with open(out) as f:
        rows = list(csv.DictReader(f))
    return summary, rows


def field(summary, key):
    for tok in summary.split():
        if tok.startswith(key + "="):
            return tok.split("=", 1)[1]
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--iterations", default="10,15,20,25,30,40")
    ap.add_argument("--motions", default="stand,squat.csv")
    ap.add_argument("--configs", default="full,rigid,plain")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    motions_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "robots", "nao", "motions")
    print("| config | motion | iterations | max tilt deg | fell | leg RMS error deg | RMS vs dWorldStep deg | dx mm | rtf |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for config in a.configs.split(","):
            for motion in a.motions.split(","):
                mpath = motion if motion == "stand" or os.path.exists(motion) else os.path.join(motions_dir, motion)
                out = os.path.join(tmp, "log.csv")
                _, exact = run(a.cli, config, mpath, "big", a.set, out)
                for it in ["big"] + a.iterations.split(","):
                    summary, rows = run(a.cli, config, mpath, it, a.set, out)
                    n = min(len(rows), len(exact))
                    e2 = d2 = 0.0
                    cnt = 0
                    for k in range(n):
                        for j in LEGS:
                            q = float(rows[k][j + "/q_rad"])
                            e2 += (float(rows[k][j + "/q_target_rad"]) - q) ** 2
                            d2 += (q - float(exact[k][j + "/q_rad"])) ** 2
                            cnt += 1
                    dx = (float(rows[-1]["torso/x_m"]) - float(rows[0]["torso/x_m"])) * 1e3
                    print(f"| {config} | {os.path.basename(motion)} | {it} | {field(summary, 'max_tilt_deg')} | "
                          f"{field(summary, 'fell')} | {math.degrees(math.sqrt(e2 / cnt)):.3f} | "
                          f"{math.degrees(math.sqrt(d2 / cnt)):.3f} | {dx:.0f} | {field(summary, 'rtf')} |", flush=True)


if __name__ == "__main__":
    main()
