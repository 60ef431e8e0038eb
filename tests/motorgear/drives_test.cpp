// SPDX-License-Identifier: BSD-3-Clause
// motorgear/drives.h: each drive's solver terms against its law.
#include "motorgear/drives.h"

#include <gtest/gtest.h>

#include "tests/motorgear/servo_fixtures.h"

namespace gapsim::motorgear {
namespace {

TEST(Drives, IdealServoCommandsClampedProportionalVelocity) {
  IdealServoDrive d(test::idealServo());
  const SolverTerms t = d.step(0.001, {0.05, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(t.motor_velocity_rad_s, 1.0);  // 20 1/s x 0.05 rad
  EXPECT_DOUBLE_EQ(t.motor_fmax_Nm, 7.5);
  EXPECT_FALSE(t.has_explicit_torque);
  EXPECT_DOUBLE_EQ(d.step(0.001, {-1.0, 0.0, 0.0, 0.0}).motor_velocity_rad_s, -2.0);  // clamped at v_max
  EXPECT_DOUBLE_EQ(d.damping_Nm_s_rad(), 0.0);
}

TEST(Drives, DynamixelDamperRowTargetAndBoundSide) {
  DynamixelServo::Params p;
  p.kp_Nm_rad = 10;
  p.kd_Nm_s_rad = 0.5;
  p.kc_Nm = 0.03;
  p.tau_min_Nm = -0.4;
  p.tau_max_Nm = 0.75;
  DynamixelDrive d(p, 0.001, 0.0);
  EXPECT_DOUBLE_EQ(d.damping_Nm_s_rad(), 0.5);
  // e = q - goal = -0.1: target velocity -kp e / kd = 2 rad/s; pushing up: bound tau_max.
  SolverTerms t = d.step(0.001, {0.1, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(t.damper_velocity_rad_s, 2.0);
  EXPECT_DOUBLE_EQ(t.damper_fmax_Nm, 0.75);
  EXPECT_DOUBLE_EQ(t.motor_fmax_Nm, 0.03);  // kc: the motor row's dry friction
  // Moving faster than the target: the law pushes down, bound -tau_min.
  t = d.step(0.001, {0.1, 0.0, 0.0, 5.0});
  EXPECT_DOUBLE_EQ(t.damper_fmax_Nm, 0.4);
}

TEST(Drives, DynamixelExplicitWithoutKdAndGoalDelayedByWholeSteps) {
  DynamixelDrive d(test::delayedExplicitServo(), 0.001, 0.0);
  for (int k = 0; k < 3; ++k) {  // the goal of 3 steps ago is the initial target, 0
    const SolverTerms t = d.step(0.001, {0.05, 0.0, 0.0, 0.0});
    EXPECT_TRUE(t.has_explicit_torque);
    EXPECT_DOUBLE_EQ(t.explicit_torque_Nm, 0.0) << k;
  }
  EXPECT_DOUBLE_EQ(d.step(0.001, {0.05, 0.0, 0.0, 0.0}).explicit_torque_Nm, 0.5);  // -kp (0 - 0.05)
  EXPECT_DOUBLE_EQ(d.step(0.001, {1.0, 0.0, 0.0, 0.0}).explicit_torque_Nm, 0.5);   // still the old goal
}

TEST(Drives, FrictionDriveCarriesOnlyTheDryFriction) {
  FrictionDrive d(0.2);
  const SolverTerms t = d.step(0.001, {1.0, 0.0, 0.0, 3.0});
  EXPECT_FALSE(t.has_explicit_torque);
  EXPECT_DOUBLE_EQ(t.motor_velocity_rad_s, 0.0);
  EXPECT_DOUBLE_EQ(t.motor_fmax_Nm, 0.2);
}

}  // namespace
}  // namespace gapsim::motorgear
