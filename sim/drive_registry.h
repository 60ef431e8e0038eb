// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The one place that maps a joint's DriveKind to the motorgear drive that runs it
/// (motorgear/drive.h), and the model's multi-joint drives to theirs (motorgear/coupled_drive.h).
/// What each kind is (its robot-file name, parameters, presets) is sim/drive_kinds.h.
/// A new drive: a class in motorgear/drives.h, its row in drive_kinds.cpp and one case here.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "motorgear/coupled_drive.h"
#include "motorgear/drive.h"
#include "sim/drive_kinds.h"
#include "sim/reality.h"
#include "sim/robot_model.h"

namespace gapsim {

/// What the world builder decided for a MoToFlex chain (compile step, sim/simulation_build.cpp):
/// its parameters as they run and the damper row's b taken out of them.
struct CompiledChain {
  motorgear::JointDrivetrain::Params params;
  double damping_Nm_s_rad = 0;
};

/// The drive of a movable joint that is not a mimic. `hinge`: the MoToFlex chain and the Dynamixel
/// servo drive hinges only; on a slider the joint's ideal servo runs. `chain` is used for MoToFlex.
/// On a hinge, the drive effects of `reality` (sim/reality.h) wrap it, inside out: command delay,
/// Stribeck friction, backlash.
std::unique_ptr<motorgear::Drive> makeDrive(const Joint& joint, bool hinge, double dt_s, double q0_rad,
                                            const CompiledChain& chain, const RealityEffects& reality = {});

/// The most a joint's drive turns it unloaded at its supply voltage (rad/s): the MoToFlex chain's
/// no-load speed (motorgear::DcMotor::noLoadJointSpeed_rad_s). None for the other drives, whose
/// speed limits are not a voltage law.
std::optional<double> noLoadJointSpeed_rad_s(const Drivetrain& drive);

/// A drive that moves several joints (motorgear/coupled_drive.h) and those joints, in its order.
struct CoupledDriveSlot {
  std::unique_ptr<motorgear::CoupledDrive> drive;
  std::vector<int> joints;
  std::string element;  ///< the robot-file element that declared it, e.g. mabel_leg
  int line = 0;         ///< its line in the robot file
};

/// Every coupled drive the model declares (MABEL's legs: motorgear::MabelLegDrive on hip and
/// knee), at the model's initial pose. A new coupled drive: a motorgear class and a loop here.
std::vector<CoupledDriveSlot> makeCoupledDrives(const RobotModel& model);

}  // namespace gapsim
