// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/dc_motor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

// RL step response U_R(t) = U (1 - exp(-t R/L)): 63.2 % at t = L/R = 48 us. The update is the
// exact solution, so any step size gives it up to rounding: 1e-12 relative.
TEST(DcMotor, RlStepReaches63PercentAtTimeConstant) {
  DcMotor::Params p;
  const double tau = p.electricalTimeConstant_s();
  EXPECT_NEAR(tau, 3.09e-4 / 6.44, 1e-18);
  for (int n : {1, 7, 1000}) {
    DcMotor m(p);
    for (int k = 0; k < n; ++k) m.step(tau / n, 1.0, 0.0);
    EXPECT_NEAR(m.state().U_R_V, 1.0 - std::exp(-1.0), 1e-12) << n << " steps";
  }
}

// Exact vs explicit Euler U_R += (U - U_R) dt R/L. At dt = tau/2, t = 2 tau: Euler gives
// 1 - 0.5^4 = 0.9375 vs 1 - e^-2 = 0.8647 (error 0.073), the exact update errs by rounding only.
// At the MoToFlex step dt = 1 ms = 20.8 tau, Euler's factor |1 - 20.8| > 1 diverges.
TEST(DcMotor, ExactIntegrationBeatsExplicitEuler) {
  DcMotor::Params p;
  const double tau = p.electricalTimeConstant_s();
  DcMotor m(p);
  double euler = 0.0;
  for (int k = 0; k < 4; ++k) {
    m.step(tau / 2, 1.0, 0.0);
    euler += (1.0 - euler) * 0.5;
  }
  const double truth = 1.0 - std::exp(-2.0);
  const double err_exact = std::abs(m.state().U_R_V - truth);
  const double err_euler = std::abs(euler - truth);
  EXPECT_LT(err_exact, 1e-14);
  EXPECT_GT(err_euler, 0.07);

  DcMotor big(p);
  double e = 0.0;
  for (int k = 0; k < 10; ++k) {
    big.step(1e-3, 1.0, 0.0);
    e += (1.0 - e) * 1e-3 / tau;
  }
  EXPECT_NEAR(big.state().U_R_V, 1.0, 1e-12);
  EXPECT_GT(std::abs(e), 1e10);  // |1 - 20.84|^10 ~ 9e12
}

// Stall: I = U/R = 3.354 A at 21.6 V; T = S K_t U / R = 0.7 * 0.0195 * 21.6 / 6.44 = 0.045783 N m
// (motor side; x 201.3 = 9.216 N m at a type-A joint). After many tau the stepped torque equals
// it up to exp(-20.8 * 5) and rounding: 1e-12 N m.
TEST(DcMotor, StallTorqueFromParameters) {
  DcMotor m(DcMotor::Params{});
  EXPECT_NEAR(m.stallCurrent_A(21.6), 21.6 / 6.44, 1e-14);
  const double T_stall = 0.7 * 0.0195 * 21.6 / 6.44;
  EXPECT_NEAR(m.stallTorque_Nm(21.6), T_stall, 1e-15);
  EXPECT_NEAR(T_stall * 201.3, 9.2160, 1e-4);
  double T = 0;
  for (int k = 0; k < 5; ++k) T = m.step(1e-3, 21.6, 0.0);
  EXPECT_NEAR(T, T_stall, 1e-12);
  EXPECT_NEAR(m.state().current_A, 21.6 / 6.44, 1e-12);
}

// No-load joint speed with the MoToFlex friction (K_e = 0): S K_t U / R = B_v omega_j, i.e.
// omega_j = 0.045783 / 0.05346 = 0.85639 rad/s (type A). With a true back-EMF K_e = K_t, B_v = 0,
// S = 1: omega_j = U / (K_e sigma) (the classic U/K_e at the motor). Torque at that speed: 0.
TEST(DcMotor, NoLoadSpeedFromParameters) {
  DcMotor m(DcMotor::Params{});
  const double w = m.noLoadJointSpeed_rad_s(21.6, 201.3);
  EXPECT_NEAR(w, 0.7 * 0.0195 * 21.6 / 6.44 / 5.346e-2, 1e-12);
  EXPECT_NEAR(w, 0.85639, 1e-5);
  double T = 1;
  for (int k = 0; k < 5; ++k) T = m.step(1e-3, 21.6, w);
  EXPECT_NEAR(T, 0.0, 1e-12);

  DcMotor::Params p;
  p.S = 1.0;
  p.B_v_Nm_s_rad = 0.0;
  p.K_e_V_s_rad = p.K_t_Nm_A;
  DcMotor e(p);
  const double sigma = 130.85;
  const double we = e.noLoadJointSpeed_rad_s(21.6, sigma);
  EXPECT_NEAR(we, 21.6 / (0.0195 * sigma), 1e-12);
  for (int k = 0; k < 5; ++k) T = e.step(1e-3, 21.6, we, sigma * we);
  EXPECT_NEAR(T, 0.0, 1e-12);
}

// Energy balance with a true back-EMF (K_e = K_t, S = 1, B_v = 0) at steady state:
// U I = T omega_m + I^2 R. Both sides are a few watts; rounding only: 1e-12 W.
TEST(DcMotor, EnergyBalanceWithBackEmf) {
  DcMotor::Params p;
  p.S = 1.0;
  p.B_v_Nm_s_rad = 0.0;
  p.K_e_V_s_rad = p.K_t_Nm_A;
  DcMotor m(p);
  const double U = 12.0, omega_m = 300.0;
  double T = 0;
  for (int k = 0; k < 5; ++k) T = m.step(1e-3, U, 0.0, omega_m);
  const double I = m.state().current_A;
  EXPECT_NEAR(U * I, T * omega_m + I * I * p.R_Ohm, 1e-12);
  EXPECT_GT(T, 0.0);
}

TEST(DcMotor, JointDampingAndFrictionSign) {
  DcMotor m(DcMotor::Params{});
  // U = 0 and the joint turning forward: friction torque -B_v omega (motor side).
  EXPECT_NEAR(m.step(1e-3, 0.0, 2.0), -5.346e-2 * 2.0, 1e-15);
  EXPECT_NEAR(m.jointDamping_Nm_s_rad(201.3), 201.3 * 5.346e-2, 1e-12);
}

// The by-name accessors and validate()'s quotes of every Params: params_by_name_test.cpp.
TEST(DcMotor, ReadsItsParamsByName) { EXPECT_EQ(DcMotor::Params{}.get("B_v"), 5.346e-2); }

}  // namespace
}  // namespace gapsim::motorgear
