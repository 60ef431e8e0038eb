// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Turns a Simulation's state into one log row in the CSV dialect of DESIGN.md:
///   time_s; per movable joint <j>/q_target_rad, <j>/q_rad (encoder), <j>/qd_rad_s, <j>/tau_Nm;
///   <imu>/pitch_rad, roll_rad, tilt_rad, gyro_{x,y,z}_rad_s, {x,y,z}_m (IMU link position);
///   com/{x,y,z}_m; per foot <foot>/contact (0 or 1), <foot>/force_N.
/// Probes (opt-in by glob patterns on the column name, e.g. "LKnee*" or "*/motor/current_A"):
///   MoToFlex joints: <j>/pid/{error_rad,U_unclamped_V,U_V,saturated}, <j>/motor/{U_R_V,current_A,
///   friction_Nm,torque_Nm}, <j>/gear/{input_torque_Nm,mass_position_rad,mass_speed_rad_s,
///   deflection_rad,spring_rad,hull_contact,spring_torque_Nm,joint_torque_Nm};
///   soft links: <link>/soft<k>/{alpha1_rad,alpha2_rad} (bending between segments k-1 and k);
///   MABEL legs: <leg>/<MabelTransmission probe>, e.g. mabel/left/stretch_mLS_rad; compliant-ground
///   toes: <toe>/normal_N, <toe>/penetration_m.

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace gapsim {

class Recorder {
 public:
  explicit Recorder(const RobotModel& model, const std::vector<std::string>& probe_patterns = {});
  /// Every probe column the model offers (what the patterns choose from).
  static std::vector<std::string> probeColumns(const RobotModel& model);
  const std::vector<std::string>& columns() const { return columns_; }
  /// Fills `row` (resized to columns().size()) from the simulation's current state.
  void sample(const Simulation& sim, std::vector<double>& row) const;

 private:
  std::vector<std::string> columns_;
  std::vector<int> joints_;
  std::string imu_;
  struct Probe {
    int joint = -1;  ///< MoToFlex probe of this joint, or
    int probe = -1;  ///< index into JointDrivetrain::Probes::names()
    int soft = -1;   ///< soft joint index
    int axis = 0;    ///< 1 or 2
    int leg = -1;    ///< MABEL transmission probe of this leg (index into MabelTransmission::Probes::names())
    int toe = -1;    ///< compliant-ground toe (probe 0 normal_N, 1 penetration_m)
  };
  std::vector<Probe> probes_;
};

}  // namespace gapsim
