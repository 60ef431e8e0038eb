// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The torque-speed envelope and the drive/backdrive diagram of one joint of a robot, from the
/// drive that runs for it: the compile step's prototype of the joint's drive
/// (CompiledModel::Joint::prototype, sim/compile.h) swept by motorgear/drive_envelope.h. What
/// `gapsim-cli drive-curve` writes (CSV and, with gnuplot, a PNG) and the Robot dock draws.
///
/// Speeds: `points` rates evenly over [-max, max], plus 0 and +-the no-load rates of both curves.
/// max_speed_rad_s = 0 picks 1.25 x the larger no-load rate (10 rad/s when the drive has none
/// below 1000 rad/s, e.g. a friction-only joint).

#include <string>
#include <vector>

#include "calib/gnuplot_figure.h"
#include "motorgear/drive_envelope.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

struct DriveCurveOptions {
  std::string joint;             ///< a movable joint of the robot with its own drive
  int points = 201;              ///< evenly spaced rates (>= 2)
  double max_speed_rad_s = 0.0;  ///< sweep range +-max; 0: from the no-load rates
  double error_rad = 2.0;        ///< |target - q| that saturates the position law
  double settle_s = 0.2;         ///< stepping before a point counts as settled
};

struct DriveCurve {
  std::string robot_file;
  std::string joint;
  std::string drive;               ///< the drive's name as it runs ("Dynamixel (paper law)", ...)
  double dt_s = 0.0;               ///< the step the drive was stepped with (the robot's dt)
  double stall_max_Nm = 0.0;       ///< tau_max(0): the torque that starts a motion upwards
  double stall_min_Nm = 0.0;       ///< tau_min(0)
  double no_load_max_rad_s = 0.0;  ///< where tau_max reaches 0 going up (NaN: not below 1000 rad/s)
  double no_load_min_rad_s = 0.0;  ///< where tau_min reaches 0 going down (<= 0; NaN: none)
  std::vector<motorgear::EnvelopePoint> points;
  int unsettled = 0;  ///< points whose torque did not settle (drive_envelope.h)
};

/// The envelope of `options.joint` of `model` as it runs (compiled with its defaults). Throws
/// InputError (robot file, "--joint") for an unknown joint, a fixed, mimic or prismatic joint, a
/// joint moved by a coupled drive, and for options out of range (field "--points", "--max-speed", ...).
DriveCurve driveCurve(const RobotModel& model, const DriveCurveOptions& options);

/// The curve as CSV: qd_rad_s,tau_max_Nm,tau_min_Nm,power_max_W,power_min_W,quadrant_max,
/// quadrant_min,settled (power = tau qd: > 0 driving, < 0 backdriven).
void writeDriveCurveCsv(const std::string& path, const DriveCurve& c);

/// The gnuplot script that draws the CSV `csv` into `png`: both curves over the four quadrants,
/// the backdriven quadrants shaded, the stall and no-load points marked.
std::string driveCurveFigureScript(const DriveCurve& c, const std::string& csv, const std::string& png);

}  // namespace gapsim::calib
