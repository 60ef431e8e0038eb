// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Does a motion ask a joint to turn faster than its drive can? A MoToFlex drive at its battery
/// voltage turns its joint at most at the no-load speed, stall torque over back-EMF damping
/// (motorgear::DcMotor::noLoadJointSpeed_rad_s; U_bat / (K_e sigma) without speed friction).
/// Targets that turn faster leave the joint lagging behind them: the motion is then played as
/// the motors allow, not as it was planned (docs/walk.md, "Walks the motors cannot follow").

#include <string>
#include <vector>

#include "sim/robot_model.h"
#include "sim/walk_generator.h"

namespace gapsim {

/// A joint whose targets turn faster than its drive's no-load speed.
struct JointTooFast {
  std::string joint;
  double peak_rad_s = 0;     ///< fastest target rate, between two frames
  double at_s = 0;           ///< motion time of the frame that ends that interval
  double no_load_rad_s = 0;  ///< the drive's no-load joint speed at U_bat
};

/// The joints of `motion` whose target rate exceeds their drive's no-load speed in `model`
/// (noLoadJointSpeed_rad_s, sim/drive_registry.h: MoToFlex drives), most exceeded (peak / no-load)
/// first. Joints with other drives are not checked: their speed limits are not a voltage law.
std::vector<JointTooFast> jointsFasterThanTheirDrives(const RobotModel& model, const GeneratedMotion& motion);

}  // namespace gapsim
