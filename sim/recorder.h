// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Turns a Simulation's state into one log row in the CSV dialect of DESIGN.md:
///   time_s; per movable joint <j>/q_target_rad, <j>/q_rad (encoder), <j>/qd_rad_s, <j>/tau_Nm;
///   <imu>/pitch_rad, roll_rad, tilt_rad, gyro_{x,y,z}_rad_s, {x,y,z}_m (IMU link position);
///   com/{x,y,z}_m; per foot <foot>/contact (0 or 1), <foot>/force_N.

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace gapsim {

class Recorder {
 public:
  explicit Recorder(const RobotModel& model);
  const std::vector<std::string>& columns() const { return columns_; }
  /// Fills `row` (resized to columns().size()) from the simulation's current state.
  void sample(const Simulation& sim, std::vector<double>& row) const;

 private:
  std::vector<std::string> columns_;
  std::vector<int> joints_;
  std::string imu_;
};

}  // namespace gapsim
