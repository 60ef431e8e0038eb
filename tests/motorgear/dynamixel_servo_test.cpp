// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/dynamixel_servo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

// tau = -kp (q - q_bar) - kd qd - kc sgn(qd) with kp 9.272, kd 0.3069, kc 0.03 (paper 000).
// Inside the clamp the law is one expression evaluated in the same order: exact (1e-15 N m for
// the different association of the products).
TEST(DynamixelServo, LawExactInsideClamp) {
  DynamixelServo s(DynamixelServo::Params{});
  struct Case {
    double q_bar, q, qd;
  };
  for (const Case c : {Case{0.01, 0.0, 0.0}, Case{0.0, 0.02, 0.1}, Case{-0.03, -0.01, -0.2}, Case{0.05, 0.05, 0.5}}) {
    const double sgn = c.qd > 0 ? 1 : (c.qd < 0 ? -1 : 0);
    const double expected = -9.272 * (c.q - c.q_bar) - 0.3069 * c.qd - 0.03 * sgn;
    ASSERT_LT(std::abs(expected), 0.75);
    EXPECT_NEAR(s.step(1e-3, c.q_bar, c.q, c.qd), expected, 1e-15);
  }
  // sgn(0) = 0: at rest with zero error no torque at all.
  EXPECT_EQ(s.step(1e-3, 0.3, 0.3, 0.0), 0.0);
  // 0.01 rad error, at rest: 0.09272 N m.
  EXPECT_NEAR(DynamixelServo::torque_Nm(s.params(), 0.01, 0.0, 0.0), 0.09272, 1e-15);
}

// Clamp to [tau_min, tau_max] = [-0.75, 0.75] N m (25 % of the AX-18A stall torque).
TEST(DynamixelServo, ClampExact) {
  DynamixelServo s(DynamixelServo::Params{});
  EXPECT_EQ(s.step(1e-3, 1.0, 0.0, 0.0), 0.75);
  EXPECT_NEAR(s.state().torque_unclamped_Nm, 9.272, 1e-15);
  EXPECT_EQ(s.step(1e-3, -1.0, 0.0, 0.0), -0.75);
  DynamixelServo::Params asym;
  asym.tau_min_Nm = -0.1;
  asym.tau_max_Nm = 0.2;
  DynamixelServo a(asym);
  EXPECT_EQ(a.step(1e-3, 0.0, 0.1, 0.0), -0.1);
  EXPECT_EQ(a.step(1e-3, 0.1, 0.0, 0.0), 0.2);
}

// The row form the solver runs is the same law: with the rate unchanged over the step, the damper
// row's torque kd (v - qd), bounded on the side it pushes to, is clamp(-kp e - kd qd) (kc is the
// joint motor's friction bound, outside the row); with kd = 0 the drive term is explicit.
TEST(DynamixelServo, SolverTermsAreTheLaw) {
  DynamixelServo::Params p;
  p.kc_Nm = 0.0;
  for (const double e_rad : {-0.5, -0.01, 0.0, 0.02, 0.3}) {
    for (const double qd_rad_s : {-4.0, -0.2, 0.0, 0.5, 6.0}) {
      const SolverTerms t = DynamixelServo::solverTerms(p, 0.1, 0.1 + e_rad, qd_rad_s);
      ASSERT_FALSE(t.has_explicit_torque);
      const double row_Nm =
          std::clamp(p.kd_Nm_s_rad * (t.damper_velocity_rad_s - qd_rad_s), -t.damper_fmax_Nm, t.damper_fmax_Nm);
      EXPECT_NEAR(row_Nm, DynamixelServo::torque_Nm(p, 0.1, 0.1 + e_rad, qd_rad_s), 1e-12) << e_rad << " " << qd_rad_s;
    }
  }
  p.kd_Nm_s_rad = 0.0;
  const SolverTerms t = DynamixelServo::solverTerms(p, 0.0, 0.05, 1.0);
  EXPECT_TRUE(t.has_explicit_torque);
  EXPECT_EQ(t.explicit_torque_Nm, DynamixelServo::torque_Nm(p, 0.0, 0.05, 1.0));
  EXPECT_EQ(DynamixelServo::solverTerms(DynamixelServo::Params{}, 0.0, 0.0, 0.0).motor_fmax_Nm, 0.03);
}

// The by-name accessors and validate()'s quotes of every Params: params_by_name_test.cpp.
TEST(DynamixelServo, ReadsItsParamsByName) {
  const DynamixelServo::Params p;
  EXPECT_EQ(p.get("kp"), 9.272);
  EXPECT_EQ(p.get("kd"), 0.3069);
  EXPECT_EQ(p.get("kc"), 0.03);
}

// speed_max: the drive term -kp e is limited to kd speed_max, so with a far goal the torque is
// kd (speed_max - qd): the torque-speed line, zero at the no-load speed, then clamped.
TEST(DynamixelServo, NoLoadSpeedLimitsTheDriveTerm) {
  DynamixelServo::Params p;
  p.kc_Nm = 0.0;
  p.speed_max_rad_s = 8.0;
  const double kd = p.kd_Nm_s_rad;
  EXPECT_DOUBLE_EQ(DynamixelServo::torque_Nm(p, 1.0, 0.0, 0.0), 0.75);           // clamp: kd w0 = 2.46 N m
  EXPECT_NEAR(DynamixelServo::torque_Nm(p, 1.0, 0.0, 6.0), kd * 2.0, 1e-12);     // on the line
  EXPECT_NEAR(DynamixelServo::torque_Nm(p, 1.0, 0.0, 8.0), 0.0, 1e-12);          // no-load speed
  EXPECT_NEAR(DynamixelServo::torque_Nm(p, -1.0, 0.0, -7.0), -kd * 1.0, 1e-12);  // symmetric
  // Near the goal the limit does not act: the paper's law.
  EXPECT_NEAR(DynamixelServo::torque_Nm(p, 0.01, 0.0, 0.1), 9.272 * 0.01 - kd * 0.1, 1e-12);
  p.speed_max_rad_s = 0.0;  // off
  EXPECT_NEAR(DynamixelServo::torque_Nm(p, 1.0, 0.0, 8.0), 0.75, 1e-12);
}

TEST(DynamixelServo, SpeedLimitAndDelayAreValidated) {
  DynamixelServo::Params p;
  p.speed_max_rad_s = -1;
  EXPECT_THROW(p.validate(), std::invalid_argument);
  p.speed_max_rad_s = 8;
  p.kd_Nm_s_rad = 0;  // no slope for the torque-speed line
  EXPECT_THROW(p.validate(), std::invalid_argument);
  DynamixelServo::Params q;
  q.delay_s = 1.5;
  EXPECT_THROW(q.validate(), std::invalid_argument);
  q.delay_s = 0.05;
  EXPECT_NO_THROW(q.validate());
}

}  // namespace
}  // namespace gapsim::motorgear
