// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/ideal_servo.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gapsim::motorgear {
namespace {

// omega = clamp(gain (q_target - q), +-max_velocity): one multiply, exact.
TEST(IdealServo, CommandedVelocityLawAndClamp) {
  IdealServo::Params p;
  p.gain_1_s = 50.0;
  p.max_velocity_rad_s = 2.0;
  p.fmax_Nm = 3.5;
  IdealServo s(p);
  EXPECT_EQ(s.velocity_rad_s(0.01, 0.0), 50.0 * 0.01);
  EXPECT_EQ(s.velocity_rad_s(0.0, 0.01), -50.0 * 0.01);
  EXPECT_EQ(s.velocity_rad_s(1.0, 0.0), 2.0);
  EXPECT_EQ(s.velocity_rad_s(-1.0, 0.0), -2.0);
  EXPECT_EQ(s.velocity_rad_s(0.3, 0.3), 0.0);
  EXPECT_EQ(s.fmax_Nm(), 3.5);
  EXPECT_TRUE(std::isnan(s.velocity_rad_s(std::nan(""), 0.0)));
}

}  // namespace
}  // namespace gapsim::motorgear
