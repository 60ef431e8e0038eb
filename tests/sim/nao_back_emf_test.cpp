// SPDX-License-Identifier: BSD-3-Clause
// The Nao's leg motors reach the datasheet's no-load joint speeds (robot-data/nao_motors.csv, V6:
// HipRoll/AnkleRoll 4.53 rad/s, HipPitch/KneePitch/AnklePitch 6.96 rad/s; V5 URDF 4.16 and 6.40).
// With the true back-EMF K_e = K_t the no-load speed is U_bat / (K_e sigma) = 5.50 and 8.47 rad/s;
// the MoToFlex set's B_v (5.346e-2, 3.883e-2 times the joint speed) would cap the joints at 0.86
// and 1.18 rad/s, a fifth of the real robot (docs/drivetrain.md, "Back-EMF").
// The head and arm motors are scaled from the leg motor by the datasheet's no-load speed and stall
// torque (scripts/gen_robots.py), and their wrists stay calm in a walk where they used to
// limit-cycle (docs/drivetrain.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "motorgear/dc_motor.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "twin_walk.h"

using namespace gapsim;

namespace {

double noLoadSpeed_rad_s(const RobotModel& m, const std::string& joint) {
  const auto& p = m.joints[static_cast<std::size_t>(m.jointIndex(joint))].drive.motoflex;
  return motorgear::DcMotor(p.motor).noLoadJointSpeed_rad_s(p.pid.U_bat_V, p.gear.sigma);
}

double stallJointTorque_Nm(const RobotModel& m, const std::string& joint) {
  const auto& p = m.joints[static_cast<std::size_t>(m.jointIndex(joint))].drive.motoflex;
  return motorgear::DcMotor(p.motor).stallTorque_Nm(p.pid.U_bat_V) * p.gear.sigma;
}

constexpr double kRpm = 2.0 * M_PI / 60.0;  // rad/s per rpm

}  // namespace

TEST(NaoBackEmf, LegJointsReachTheDatasheetNoLoadSpeed) {
  const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  for (const char* j : {"LHipRoll", "RAnkleRoll"}) {
    const double w = noLoadSpeed_rad_s(m, j);
    EXPECT_NEAR(w, 21.6 / (0.0195 * 201.3), 1e-9) << j;  // U_bat / (K_e sigma)
    EXPECT_NEAR(w / 4.526, 1.0, 0.25) << j;              // V6 datasheet, type 1 motor
  }
  for (const char* j : {"LHipPitch", "RKneePitch", "LAnklePitch"}) {
    const double w = noLoadSpeed_rad_s(m, j);
    EXPECT_NEAR(w, 21.6 / (0.0195 * 130.85), 1e-9) << j;
    EXPECT_NEAR(w / 6.963, 1.0, 0.25) << j;  // V6 datasheet, type 5 motor
  }
}

TEST(NaoBackEmf, HeadAndArmMotorsKeepTheLegMotorsRatioToTheDatasheet) {
  // robot-data/nao_motors.csv, V3.2: legs RE-Max 24 (8000 rpm, 59.5 mN m stall), head and upper
  // arms RE-Max 17 (11900 rpm, 15.1 mN m), wrists and hands A-max 12 (12300 rpm, 1.52 mN m).
  // The legs' MoToFlex motor runs 1.32x the datasheet no-load speed and 0.77x its stall torque (S = 0.7);
  // the smaller motors are scaled so that they keep exactly these ratios.
  const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  const double sigma_leg = 201.3;
  const double speed_ratio = noLoadSpeed_rad_s(m, "LHipRoll") / (8000 * kRpm / sigma_leg);
  const double torque_ratio = stallJointTorque_Nm(m, "LHipRoll") / (59.5e-3 * sigma_leg);
  EXPECT_NEAR(speed_ratio, 1.32, 0.01);
  EXPECT_NEAR(torque_ratio, 0.77, 0.01);
  struct Row {
    const char* joint;
    double sigma, rpm, stall_Nm;
  };
  for (const Row r : {Row{"HeadYaw", 150.27, 11900, 15.1e-3}, Row{"LShoulderRoll", 173.22, 11900, 15.1e-3},
                      Row{"RElbowYaw", 150.27, 11900, 15.1e-3}, Row{"LWristYaw", 50.61, 12300, 1.52e-3},
                      Row{"RHand", 36.24, 12300, 1.52e-3}}) {
    EXPECT_NEAR(noLoadSpeed_rad_s(m, r.joint) / (r.rpm * kRpm / r.sigma), speed_ratio, 1e-5) << r.joint;
    EXPECT_NEAR(stallJointTorque_Nm(m, r.joint) / (r.stall_Nm * r.sigma), torque_ratio, 1e-5) << r.joint;
  }
  // The wrist: 33.6 rad/s and 0.059 N m (the leg's R with a stall-scaled K_t gave 850 rad/s).
  EXPECT_NEAR(noLoadSpeed_rad_s(m, "LWristYaw"), 33.6, 0.1);
}

TEST(NaoBackEmf, WristsStayCalmInAWalkWhereTheyUsedToLimitCycle) {
  // The walking twin's hidden parameter set on its 1.5 s training walk, full pipeline, QuickStep
  // 60 (calib/examples/nao_walk_twin). With the leg motor's R and gear in the arms the wrists
  // limit-cycled in the twin walks (12-44 rad/s); now they follow the arm swing at under 1 rad/s.
  const test::TwinWalk w = test::runTwinWalk("walk_140mm_s_1.5s.csv", 6.5);
  const RunSummary& s = w.summary;
  const Log& log = w.log;
  ASSERT_FALSE(s.diverged) << s.divergence;
  EXPECT_FALSE(s.fall_time_s.has_value());
  for (const char* c : {"LWristYaw/qd_rad_s", "RWristYaw/qd_rad_s"}) {
    double max_abs = 0.0;
    for (double v : log.column(c)) max_abs = std::max(max_abs, std::abs(v));
    EXPECT_LT(max_abs, 3.0) << c;
  }
}
