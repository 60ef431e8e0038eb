// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The BIOLOID data package's lean-to-stand layout (real-data/bioloid README) read into a
/// recording manifest (calib/recording_manifest.h): `rising/lean-to-stand/<dur>-NN.csv` and
/// `withPowerCable/<dur>-NN.csv` recordings, their commands `motions/lean-to-stand/<dur>.csv`
/// (two decimals; withPowerCable 0.1 is 0.10). Each trial: start from the recording's first frame,
/// the authors' wall, the commands held at the recorded frames in whole Dynamixel ticks (the
/// `ctrl` app sent int(ticks)), the torso tilt measured (weight 1) and the encoders (weight 0).
/// The only code that knows these paths.

#include <string>

#include "calib/recording_manifest.h"

namespace gapsim::calib {

/// Every trial of the package at `root`, sorted by name (InputError naming the directory when it
/// is not such a package, the recording for a bad file name or a missing commanded motion).
RecordingManifest legacyLeanToStandManifest(const std::string& root);

/// Whether `dir` holds rising/lean-to-stand and motions/.
bool isLeanToStandPackage(const std::string& dir);

/// The one trial of the package at `root` whose recording is `recording` (an absolute path);
/// `as_given` names it in errors.
RecordingManifest leanToStandTrialOf(const std::string& root, const std::string& recording,
                                     const std::string& as_given);

}  // namespace gapsim::calib
