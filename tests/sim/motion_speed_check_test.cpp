// SPDX-License-Identifier: BSD-3-Clause
// Joints whose planned targets outrun their drive: the no-load speed is the voltage law's
// U_bat / (K_e sigma) (no speed friction in the Nao file), a walk with 0.125 m steps asks the
// knees for more, a slow walk asks nothing, and plain drives are not checked.
#include "sim/motion_speed_check.h"

#include <gtest/gtest.h>

#include "sim/drive_registry.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

using namespace gapsim;

namespace {

const RobotModel& nao() {
  static const RobotModel m = loadRobotFile(resolveRobotFile("nao"));
  return m;
}

}  // namespace

TEST(MotionSpeedCheck, NoLoadSpeedIsBatteryVoltageOverBackEmfAndRatio) {
  const Drivetrain& knee = nao().joints[static_cast<std::size_t>(nao().jointIndex("LKneePitch"))].drive;
  const auto& p = knee.motoflex;
  ASSERT_EQ(p.motor.B_v_Nm_s_rad, 0.0);
  ASSERT_TRUE(noLoadJointSpeed_rad_s(knee).has_value());
  EXPECT_NEAR(*noLoadJointSpeed_rad_s(knee), p.pid.U_bat_V / (p.motor.K_e_V_s_rad * p.gear.sigma), 1e-12);
  EXPECT_NEAR(*noLoadJointSpeed_rad_s(knee), 21.6 / (0.0195 * 130.85), 1e-3);  // nao.urdf's type B values
  Drivetrain ideal = knee;
  ideal.kind = DriveKind::Ideal;
  EXPECT_FALSE(noLoadJointSpeed_rad_s(ideal).has_value());
}

TEST(MotionSpeedCheck, LongStepsOutrunTheKneesASlowWalkDoesNot) {
  // As requested, without the generator's fit to the drives (walk_generator_test checks the fit).
  WalkParams fast = parseWalkParams("speed=0.25,step_duration=1.0,steps=12,fit_drives=0");
  const std::vector<JointTooFast> too_fast = jointsFasterThanTheirDrives(nao(), planWalk(nao(), fast));
  ASSERT_GE(too_fast.size(), 2u);
  EXPECT_NE(too_fast[0].joint.find("KneePitch"), std::string::npos);
  EXPECT_GT(too_fast[0].peak_rad_s, 1.3 * too_fast[0].no_load_rad_s);
  for (std::size_t i = 1; i < too_fast.size(); ++i)
    EXPECT_GE(too_fast[i - 1].peak_rad_s / too_fast[i - 1].no_load_rad_s,
              too_fast[i].peak_rad_s / too_fast[i].no_load_rad_s);
  const WalkParams slow = parseWalkParams("speed=0.1,step_duration=1.5,steps=12");
  EXPECT_TRUE(jointsFasterThanTheirDrives(nao(), planWalk(nao(), slow)).empty());
}
