#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a recording manifest (docs/recordings.md) for the BIOLOID data package's lean-to-stand
trials, so that gapsim reads them as any other recording set.

    scripts/recordings_from_lean_to_stand.py ../shared/real-data/bioloid OUTDIR

writes OUTDIR/recordings.json naming the package's files by absolute path (no recording is
copied). Each trial replays as the legacy layout reads it: start from the recording's first
frame, the authors' wall, the commands motions/lean-to-stand/<dur>.csv held at the recorded
frames in whole Dynamixel ticks, the torso tilt measured (weight 1) and the encoders reported
(weight 0; replay's joint weight sets it). Standard library only.
"""
import json
import os
import sys


def trials_of(package, sub, prefix, tags):
    d = os.path.join(package, "rising", "lean-to-stand", sub)
    out = []
    for f in sorted(os.listdir(d)):
        if not f.endswith(".csv") or not os.path.isfile(os.path.join(d, f)):
            continue
        stem = f[:-4]
        dur_text = stem.rsplit("-", 1)[0]
        try:
            dur = float(dur_text)
        except ValueError:
            sys.exit(f"{os.path.join(d, f)}: file name: expected <step duration>-<trial>.csv, e.g. 0.05-01.csv")
        motion = os.path.join(package, "motions", "lean-to-stand", "%.2f.csv" % dur)
        if not os.path.isfile(motion):
            sys.exit(f"{os.path.join(d, f)}: motion: no commanded motion {motion} for this trial")
        out.append({
            "name": prefix + stem,
            "recording": os.path.abspath(os.path.join(d, f)),
            "commands": {"file": os.path.abspath(motion)},
            "step_duration_s": dur,
            "tags": tags,
        })
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[1] if __doc__ else "usage: PACKAGE OUTDIR")
    package, outdir = argv[1], argv[2]
    if not os.path.isdir(os.path.join(package, "rising", "lean-to-stand")):
        sys.exit(f"{package}: not the BIOLOID data package (no directory rising/lean-to-stand)")
    trials = trials_of(package, "", "", ["lean-to-stand"])
    if os.path.isdir(os.path.join(package, "rising", "lean-to-stand", "withPowerCable")):
        trials += trials_of(package, "withPowerCable", "withPowerCable/", ["lean-to-stand", "withPowerCable"])
    manifest = {
        "format": "gapsim-recordings 1",
        "description": "BIOLOID GP lean-to-stand trials of " + os.path.abspath(package) +
                       " (jietan/bioGP @936fb3a, LGPL-3.0; see its README)",
        "authors_wall": True,
        "wall_face_x_m": -0.087,
        "defaults": {
            "robot": "bioloid",
            "initial_pose": {"from": "first_frame", "root_columns": "torso"},
            "commands": {"hold": "frames", "units": "rad", "sent_as": "dynamixel_ticks", "balance": False},
            "signals": [
                {"column": "torso/tilt_rad", "unit": "rad", "weight": 1.0},
                {"column": "*/q_rad", "unit": "rad", "weight": 0.0},
            ],
            "role": "train",
        },
        "trials": trials,
    }
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "recordings.json")
    with open(path + ".tmp", "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print(f"{path}: {len(trials)} trials of {package}")


if __name__ == "__main__":
    main(sys.argv)
