// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/pid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

// Discrete law of the MoToFlex implementation, u_k = p e_k + i dt_ref sum e + d (e_k - e_{k-1})
// at dt = dt_ref (its pidcontroller.cpp integrates in time, differences per step).
// step() evaluates the continuous form with Ki = i, Kd = d*dt_ref; at dt == dt_ref the two
// differ only by rounding (a handful of ulps of terms of a few volts): tolerance 1e-12 V.
TEST(Pid, ContinuousFormEqualsDiscreteMoToFlexLawAtReferencePeriod) {
  Pid::Params params;  // p 319.47, i 14.186, d 163.56, dt_ref 1 ms
  Pid pid(params);
  double sum = 0.0, e_prev = 0.0;
  for (int k = 0; k < 200; ++k) {
    const double q = 1e-4 * std::sin(0.05 * k);
    const double target = 2e-4 * std::cos(0.03 * k);
    const double e = target - q;
    sum += e;
    const double d_term = k == 0 ? 0.0 : params.d_V_rad * (e - e_prev);
    const double expected = params.p_V_rad * e + params.i_V_rad_s * params.dt_ref_s * sum + d_term;
    e_prev = e;
    ASSERT_LT(std::abs(expected), params.U_bat_V);  // stays in the linear range
    EXPECT_NEAR(pid.step(1e-3, target, q), expected, 1e-12) << "k = " << k;
  }
}

// Kp = p, Ki = i, Kd = d * dt_ref (header); fromContinuous inverts it exactly up to
// rounding of one multiply and one divide: 1e-12 relative.
TEST(Pid, ContinuousGainConversion) {
  Pid::Params p;
  EXPECT_DOUBLE_EQ(p.Kp_V_rad(), 319.47);
  EXPECT_EQ(p.Ki_V_rad_s(), 14.186);
  EXPECT_NEAR(p.Kd_V_s_rad(), 0.16356, 1e-15);
  const auto q = Pid::Params::fromContinuous(p.Kp_V_rad(), p.Ki_V_rad_s(), p.Kd_V_s_rad(), 1e-3);
  EXPECT_NEAR(q.i_V_rad_s, p.i_V_rad_s, 1e-12 * p.i_V_rad_s);
  EXPECT_NEAR(q.d_V_rad, p.d_V_rad, 1e-12 * p.d_V_rad);
}

// Same continuous dynamics at another period: with i = d = 0 the output is p e regardless of dt;
// with only i, after t seconds of constant error e the integral term is Ki e t.
TEST(Pid, IntegralScalesWithTimeNotSteps) {
  Pid::Params params;
  params.p_V_rad = 0.0;
  params.d_V_rad = 0.0;
  Pid a(params), b(params);
  double ua = 0, ub = 0;
  for (int k = 0; k < 100; ++k) ua = a.step(1e-3, 1e-3, 0.0);  // 0.1 s
  for (int k = 0; k < 200; ++k) ub = b.step(5e-4, 1e-3, 0.0);  // 0.1 s
  const double expected = params.Ki_V_rad_s() * 1e-3 * 0.1;    // 1.4186e-3 V
  EXPECT_NEAR(ua, expected, 1e-12);
  EXPECT_NEAR(ub, expected, 1e-12);
}

// Battery clamp: |U| <= U_bat = 21.6 V exactly (MoToFlex maxVolt), both signs.
TEST(Pid, VoltageClampBothSigns) {
  Pid pid(Pid::Params{});
  EXPECT_EQ(pid.step(1e-3, 1.0, 0.0), 21.6);
  EXPECT_TRUE(pid.state().saturated);
  EXPECT_GT(pid.state().u_unclamped_V, 21.6);
  Pid neg(Pid::Params{});
  EXPECT_EQ(neg.step(1e-3, -1.0, 0.0), -21.6);
  // Below the clamp: 0.01 rad -> p e + i dt e = 3.19484186 V, unclamped.
  Pid small(Pid::Params{});
  EXPECT_NEAR(small.step(1e-3, 0.01, 0.0), 319.47 * 0.01 + 14.186 * 1e-3 * 0.01, 1e-12);
  EXPECT_FALSE(small.state().saturated);
}

TEST(Pid, InfiniteBatteryDisablesClamp) {
  Pid::Params params;
  params.U_bat_V = std::numeric_limits<double>::infinity();
  Pid pid(params);
  EXPECT_NEAR(pid.step(1e-3, 1.0, 0.0), 319.47 + 14.186e-3, 1e-9);
}

// Anti-windup: 1 s of saturating error (e = 1 rad), then the error reverses to -0.01 rad; d = 0
// so that no derivative kick hides the integral. Without anti-windup the integral term is
// Ki * 1 rad * 1 s = 14.186 V and the output stays positive (u = -3.19 V + 14.19 V): the wound-up
// integral pushes the wrong way. With conditional integration the integral never grew, so the
// output is negative at once: u = p(-0.01) + i dt (-0.01) < 0. The clamp is checked with
// Ki = 50 V/(rad s), whose 50 V integral term is clipped to U_bat = 21.6 V.
TEST(Pid, AntiWindup) {
  auto run = [](Pid::AntiWindup aw, double& integral_term, double Ki) {
    Pid::Params params;
    params.anti_windup = aw;
    params.i_V_rad_s = Ki;
    params.d_V_rad = 0.0;
    Pid pid(params);
    for (int k = 0; k < 1000; ++k) pid.step(1e-3, 1.0, 0.0);
    integral_term = params.Ki_V_rad_s() * pid.state().integral_rad_s;
    return pid.step(1e-3, -0.01, 0.0);
  };
  double it_none, it_cond, it_clamp, it_none50;
  const double u_none = run(Pid::AntiWindup::kNone, it_none, 14.186);
  const double u_cond = run(Pid::AntiWindup::kConditional, it_cond, 14.186);
  const double u_clamp = run(Pid::AntiWindup::kClamp, it_clamp, 50.0);
  const double u_none50 = run(Pid::AntiWindup::kNone, it_none50, 50.0);
  EXPECT_NEAR(it_none, 14.186, 1e-9);
  EXPECT_NEAR(u_none, -319.47 * 0.01 + 14.186 * (1.0 - 1e-5), 1e-9);
  EXPECT_EQ(it_cond, 0.0);
  EXPECT_NEAR(u_cond, -319.47 * 0.01 - 14.186 * 1e-5, 1e-12);
  EXPECT_NEAR(it_none50, 50.0, 1e-9);
  EXPECT_EQ(u_none50, 21.6);
  EXPECT_NEAR(it_clamp, 21.6, 1e-12);
  EXPECT_NEAR(u_clamp, -319.47 * 0.01 + 21.6 - 50.0 * 1e-5, 1e-9);
}

// The by-name accessors and validate()'s quotes of every Params: params_by_name_test.cpp.
TEST(Pid, RefusesAnAntiWindupOutsideItsThree) {
  Pid::Params p;
  p.set("anti_windup", 2.0);
  EXPECT_EQ(p.anti_windup, Pid::AntiWindup::kClamp);
  EXPECT_THROW(p.set("anti_windup", 3.0), std::invalid_argument);
  EXPECT_THROW(p.set("anti_windup", 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace gapsim::motorgear
