// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// A calibration on recorded trials (paper 002's E_cali, calib/replay_calibration.h) from the
/// command line: what `gapsim-cli calibrate --recordings` and its other name
/// `gapsim-cli calibrate-replay` run, fresh or resumed, on any backend.

#include <string>

#include "calib/calibration.h"
#include "calib/replay_calibration.h"

namespace gapsim::cli {

struct CalibrateReplayArgs {
  calib::ReplayCalibrationInputs in;
  std::string out, resume, backend = "processes";
  calib::CalibrationSettings settings;
  int jobs = 0;
  bool force = false, no_wall = false;
  bool sensitivity = true;  ///< the curvature of the training fitness at the result (Calibration)
};

/// Runs it and prints the per-trial table; `robot_given`: --robot was on the command line (else
/// the robot the trials name); `generations_given`: --generations was (it raises a resumed
/// run's total). Returns the exit code.
int runReplayCalibration(const CalibrateReplayArgs& a, bool robot_given, bool generations_given);

/// Whether the results directory `resume` holds a calibration on recorded trials (its
/// checkpoint's inputs say kind "replay"); false when there is no readable checkpoint.
bool resumesReplayCalibration(const std::string& resume);

}  // namespace gapsim::cli
