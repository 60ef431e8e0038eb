// SPDX-License-Identifier: BSD-3-Clause
// The Nao's leg motors reach the datasheet's no-load joint speeds (robot-data/nao_motors.csv, V6:
// HipRoll/AnkleRoll 4.53 rad/s, HipPitch/KneePitch/AnklePitch 6.96 rad/s; V5 URDF 4.16 and 6.40).
// With the true back-EMF K_e = K_t the no-load speed is U_bat / (K_e sigma) = 5.50 and 8.47 rad/s;
// the MoToFlex set's B_v (5.346e-2, 3.883e-2 times the joint speed) would cap the joints at 0.86
// and 1.18 rad/s, a fifth of the real robot (docs/drivetrain.md, "Back-EMF").
#include <gtest/gtest.h>

#include "motorgear/dc_motor.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

using namespace gapsim;

namespace {

double noLoadSpeed_rad_s(const RobotModel& m, const std::string& joint) {
  const auto& p = m.joints[static_cast<std::size_t>(m.jointIndex(joint))].drive.motoflex;
  return motorgear::DcMotor(p.motor).noLoadJointSpeed_rad_s(p.pid.U_bat_V, p.gear.sigma);
}

}  // namespace

TEST(NaoBackEmf, LegJointsReachTheDatasheetNoLoadSpeed) {
  const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  for (const char* j : {"LHipRoll", "RAnkleRoll"}) {
    const double w = noLoadSpeed_rad_s(m, j);
    EXPECT_NEAR(w, 21.6 / (0.0195 * 201.3), 1e-9) << j;  // U_bat / (K_e sigma)
    EXPECT_NEAR(w / 4.526, 1.0, 0.25) << j;               // V6 datasheet, type 1 motor
  }
  for (const char* j : {"LHipPitch", "RKneePitch", "LAnklePitch"}) {
    const double w = noLoadSpeed_rad_s(m, j);
    EXPECT_NEAR(w, 21.6 / (0.0195 * 130.85), 1e-9) << j;
    EXPECT_NEAR(w / 6.963, 1.0, 0.25) << j;  // V6 datasheet, type 5 motor
  }
}
