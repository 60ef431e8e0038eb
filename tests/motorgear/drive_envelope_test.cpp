// SPDX-License-Identifier: BSD-3-Clause
// motorgear/drive_envelope.h against analytic answers: the voltage-limited DC drive's envelope
// passes through its stall torque N K_t V / R and its no-load speed V / (N K_e) (quasi-static and
// with the RL current integrated); the ideal servo's is a rectangle; Coulomb friction (M1) lowers
// the driving quadrants and raises the backdriven ones by tau_c; the directional model (M5) gives
// the drive/backdrive efficiencies of its fixed point; a delay and a rigid backlash leave the
// envelope as it is; bad options throw.
#include "motorgear/drive_envelope.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "motorgear/drives.h"
#include "motorgear/friction.h"
#include "motorgear/servo_drive.h"
#include "tests/throws_saying.h"

namespace gapsim::motorgear {
namespace {

using gapsim::test::throwsSaying;

// A DC motor drive with known constants (not a preset: every number here is the test's own).
constexpr double kR = 8.3, kKt = 0.0061, kKe = 0.0072, kN = 254.0, kV = 12.0;
constexpr double kStall = kN * kKt * kV / kR;  // N K_t V / R = 2.2397 N m
constexpr double kNoLoad = kV / (kN * kKe);    // V / (N K_e) = 6.5617 rad/s

VoltageServoDrive::Params dcParams(double L_H) {
  VoltageServoDrive::Params p;
  p.firmware.supply_V = kV;
  p.firmware.tick_rad = 0.0;
  p.firmware.moving_speed_rad_s = 0.0;  // no speed cap: full voltage
  p.motor.R_Ohm = kR;
  p.motor.K_t_Nm_A = kKt;
  p.motor.K_e_V_s_rad = kKe;
  p.motor.L_H = L_H;
  p.gear_ratio = kN;
  return p;
}

// Quasi-static (L/R = 1.2e-8 s < dt/20): the damper row b (v_0 - qd) with v_0 the no-load speed.
// Both points are exact up to rounding: 1e-9 relative leaves room for a few ulps of b v_0.
TEST(DriveEnvelope, VoltageDrivePassesThroughStallAndNoLoad) {
  const VoltageServoDrive d(dcParams(1e-7), 0.001, 0.0);
  ASSERT_TRUE(d.quasiStatic());
  const auto env = torqueSpeedEnvelope(d, {-kNoLoad, 0.0, kNoLoad});
  ASSERT_EQ(env.size(), 3u);
  EXPECT_NEAR(env[1].upper.tau_Nm, kStall, 1e-9 * kStall);
  EXPECT_NEAR(env[1].lower.tau_Nm, -kStall, 1e-9 * kStall);
  EXPECT_NEAR(env[2].upper.tau_Nm, 0.0, 1e-9 * kStall);
  EXPECT_NEAR(env[0].lower.tau_Nm, 0.0, 1e-9 * kStall);
  // Backdriven at -v_nl with the law pushing up: twice the stall torque (the line goes on).
  EXPECT_NEAR(env[0].upper.tau_Nm, 2 * kStall, 1e-9 * kStall);
  for (const auto& p : env) EXPECT_TRUE(p.upper.converged && p.lower.converged);
  EXPECT_NEAR(noLoadSpeed_rad_s(d), kNoLoad, 1e-9 * kNoLoad);
}

// L/R = 1.2e-3 s > dt/20: the current is integrated exactly (dc_motor.h); at a constant rate it
// settles to (U - K_e N qd) / R, the same line (exp(-settle/tau) = exp(-166) is far below 1e-9).
TEST(DriveEnvelope, RlCurrentSettlesOnTheSameLine) {
  const VoltageServoDrive d(dcParams(0.01), 0.001, 0.0);
  ASSERT_FALSE(d.quasiStatic());
  const SteadyTorque stall = maxTorqueAtSpeed(d, 0.0, +1);
  EXPECT_TRUE(stall.converged);
  EXPECT_NEAR(stall.tau_Nm, kStall, 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, kNoLoad, +1).tau_Nm, 0.0, 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, -0.5 * kNoLoad, -1).tau_Nm, -0.5 * kStall, 1e-9 * kStall);
}

// The moving-speed register caps v_0: the line is b (v_cap - qd), crossing 0 at v_cap.
TEST(DriveEnvelope, MovingSpeedCapMovesTheNoLoadPoint) {
  auto p = dcParams(1e-7);
  p.firmware.moving_speed_rad_s = 3.0;
  const VoltageServoDrive d(p, 0.001, 0.0);
  const double b = p.backEmfDamping_Nm_s_rad();
  EXPECT_NEAR(maxTorqueAtSpeed(d, 0.0, +1).tau_Nm, b * 3.0, 1e-9 * b * 3.0);
  EXPECT_NEAR(noLoadSpeed_rad_s(d), 3.0, 1e-9 * 3.0);
}

// A bus delay of 15 ms: the torque settles after the delay line has passed (settle 0.2 s).
TEST(DriveEnvelope, DelayedDriveSettlesToTheSameEnvelope) {
  auto p = dcParams(1e-7);
  p.delay_s = 0.015;
  const VoltageServoDrive d(p, 0.001, 0.0);
  const SteadyTorque s = maxTorqueAtSpeed(d, 0.0, +1);
  EXPECT_TRUE(s.converged);
  EXPECT_NEAR(s.tau_Nm, kStall, 1e-9 * kStall);
}

// IdealServo: the row pushes with fmax towards clamp(gain e, +-v_max): +fmax below v_max,
// -fmax above it (it brakes).
TEST(DriveEnvelope, IdealServoIsARectangle) {
  IdealServo::Params sp;
  sp.gain_1_s = 20;
  sp.max_velocity_rad_s = 5.0;
  sp.fmax_Nm = 1.5;
  const IdealServoDrive d(sp);
  EXPECT_DOUBLE_EQ(maxTorqueAtSpeed(d, 4.9, +1).tau_Nm, 1.5);
  EXPECT_DOUBLE_EQ(maxTorqueAtSpeed(d, -4.9, +1).tau_Nm, 1.5);
  EXPECT_DOUBLE_EQ(maxTorqueAtSpeed(d, 5.1, +1).tau_Nm, -1.5);
  EXPECT_DOUBLE_EQ(maxTorqueAtSpeed(d, 0.0, -1).tau_Nm, -1.5);
  EXPECT_NEAR(noLoadSpeed_rad_s(d), 5.0, 1e-9);
}

// M1: the motor row carries tau_c. Driving (qd > 0, pushing up): b (v_0 - qd) - tau_c;
// backdriven (qd < 0, pushing up): b (v_0 - qd) + tau_c; at rest the push's side: stall - tau_c.
TEST(DriveEnvelope, CoulombFrictionSplitsDriveAndBackdrive) {
  GearFriction::Params f;
  f.tau_c_Nm = 0.1;
  const GearFrictionDrive d(std::make_unique<VoltageServoDrive>(dcParams(1e-7), 0.001, 0.0), f);
  const double b = dcParams(1e-7).backEmfDamping_Nm_s_rad();
  const double v = 2.0;
  EXPECT_NEAR(maxTorqueAtSpeed(d, v, +1).tau_Nm, b * (kNoLoad - v) - 0.1, 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, -v, +1).tau_Nm, b * (kNoLoad + v) + 0.1, 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, 0.0, +1).tau_Nm, kStall - 0.1, 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, 0.0, -1).tau_Nm, -kStall + 0.1, 1e-9 * kStall);
  EXPECT_STREQ(quadrantName(v, 1.0), "drive");
  EXPECT_STREQ(quadrantName(-v, 1.0), "backdrive");
  EXPECT_STREQ(quadrantName(0.0, 1.0), "hold");
}

// M5 (no Stribeck part): budget tau_c + |k_e tau_e - k_m tau_m| with the load tau_e = -tau at a
// constant rate. Driving, tau = tau_m - budget: tau = ((1 - k_m) tau_m - tau_c) / (1 + k_e).
// Backdriven, tau = tau_m + budget: tau = ((1 + k_m) tau_m + tau_c) / (1 - k_e).
TEST(DriveEnvelope, DirectionalFrictionHasTwoEfficiencies) {
  GearFriction::Params f;
  f.model = FrictionModel::M5;
  f.tau_c_Nm = 0.05;
  f.k_m = 0.2;
  f.k_e = 0.1;
  const GearFrictionDrive d(std::make_unique<VoltageServoDrive>(dcParams(1e-7), 0.001, 0.0), f);
  const double b = dcParams(1e-7).backEmfDamping_Nm_s_rad();
  const double v = 2.0;
  const double tm_drive = b * (kNoLoad - v), tm_back = b * (kNoLoad + v);
  const SteadyTorque drive = maxTorqueAtSpeed(d, v, +1);
  const SteadyTorque back = maxTorqueAtSpeed(d, -v, +1);
  ASSERT_TRUE(drive.converged && back.converged);
  EXPECT_NEAR(drive.tau_Nm, ((1 - 0.2) * tm_drive - 0.05) / (1 + 0.1), 1e-9 * kStall);
  EXPECT_NEAR(back.tau_Nm, ((1 + 0.2) * tm_back + 0.05) / (1 - 0.1), 1e-9 * kStall);
}

// A rigid backlash (width 0) passes the inner drive through; a play of 0.02 rad closes within
// the settle time at a constant rate and the flank carries the same torque.
TEST(DriveEnvelope, BacklashLeavesTheEnvelope) {
  BacklashDrive::Params bp;
  bp.width_rad = 0.02;
  bp.drive_inertia_kgm2 = 2e-3;
  const BacklashDrive d(std::make_unique<VoltageServoDrive>(dcParams(1e-7), 0.001, 0.0), bp, 0.0);
  const double b = dcParams(1e-7).backEmfDamping_Nm_s_rad();
  EXPECT_NEAR(maxTorqueAtSpeed(d, 1.0, +1).tau_Nm, b * (kNoLoad - 1.0), 1e-9 * kStall);
  EXPECT_NEAR(maxTorqueAtSpeed(d, -1.0, +1).tau_Nm, b * (kNoLoad + 1.0), 1e-9 * kStall);
}

// The paper's law: damper row kd (clamp(kp e / kd, +-speed_max) - qd), bounded by tau_max.
TEST(DriveEnvelope, PaperLawClampsAtItsTorqueLimit) {
  DynamixelServo::Params p;
  p.kp_Nm_rad = 9.272;
  p.kd_Nm_s_rad = 0.3069;
  p.kc_Nm = 0.0;
  p.tau_max_Nm = 0.75;
  p.tau_min_Nm = -0.75;
  const DynamixelDrive d(p, 0.001, 0.0);
  EXPECT_NEAR(maxTorqueAtSpeed(d, 0.0, +1).tau_Nm, 0.75, 1e-12);
  EXPECT_NEAR(maxTorqueAtSpeed(d, 0.0, -1).tau_Nm, -0.75, 1e-12);
}

TEST(DriveEnvelope, SpeedsIncludeZeroAndTheExtraRatesExactly) {
  const auto v = envelopeSpeeds(2.0, 5, {kNoLoad / 4});
  ASSERT_EQ(v.front(), -2.0);
  ASSERT_EQ(v.back(), 2.0);
  EXPECT_NE(std::find(v.begin(), v.end(), 0.0), v.end());
  EXPECT_NE(std::find(v.begin(), v.end(), kNoLoad / 4), v.end());
  EXPECT_NE(std::find(v.begin(), v.end(), -kNoLoad / 4), v.end());
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(envelopeSpeeds(2.0, 4).size(), 5u);  // -2, -2/3, 0, 2/3, 2
}

TEST(DriveEnvelope, BadOptionsThrowWithTheNumbers) {
  const VoltageServoDrive d(dcParams(1e-7), 0.001, 0.0);
  EnvelopeOptions o;
  o.dt_s = 0;
  EXPECT_THROW(maxTorqueAtSpeed(d, 0.0, +1, o), std::invalid_argument);
  o = {};
  o.error_rad = -1;
  EXPECT_THROW(torqueSpeedEnvelope(d, {0.0}, o), std::invalid_argument);
  EXPECT_THROW(envelopeSpeeds(0.0, 10), std::invalid_argument);
  EXPECT_THROW(envelopeSpeeds(1.0, 1), std::invalid_argument);
  o = {};
  o.max_steps = 0;
  EXPECT_TRUE(throwsSaying<std::invalid_argument>([&] { o.validate(); }, {"0"}));
}

// A point that has not settled within max_steps says so.
TEST(DriveEnvelope, UnsettledPointIsFlagged) {
  const VoltageServoDrive d(dcParams(0.01), 0.001, 0.0);
  EnvelopeOptions o;
  o.settle_s = 0.0;
  o.max_steps = 3;  // the current has not risen (L/R = 1.2 ms, 3 steps)
  EXPECT_FALSE(maxTorqueAtSpeed(d, 0.0, +1, o).converged);
}

}  // namespace
}  // namespace gapsim::motorgear
