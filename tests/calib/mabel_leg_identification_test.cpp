// SPDX-License-Identifier: BSD-3-Clause
// MABEL leg identification through simulation (paper 003, Sec. V, eqs. 19-20): synthetic stand
// experiments with Table V's friction and biases, simulated by the real Simulation on
// robots/mabel/identification/leg_stand.urdf, must give those values back; the log reader names
// file, line and column on bad input.
#include "calib/mabel_leg_identification.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

const RobotModel& stand() {
  static const RobotModel m = loadRobotFile(robotsDirectory() + "/mabel/identification/leg_stand.urdf");
  return m;
}

motorgear::MabelTransmission::Params legParams(LegSide side) {
  return stand().mabel_legs[static_cast<std::size_t>(standLegIndex(stand(), side))].params;
}

/// A short version of the paper's chirp (0.5 .. 20 Hz, 8 steps, 3 periods: 14 s) so that a fit
/// of some 20-40 simulations stays within a few seconds.
ChirpOptions shortChirp(double amplitude_Nm, double offset_Nm) {
  ChirpOptions c;
  c.f_start_Hz = 0.5;
  c.f_end_Hz = 20.0;
  c.steps = 8;
  c.periods = 3;
  c.amplitude_start_Nm = amplitude_Nm;
  c.amplitude_end_Nm = 10 * amplitude_Nm;
  c.offset_Nm = offset_Nm;
  c.sample_time_s = 0.001;
  return c;
}

/// Short chirps on both motors with the offsets that hold the start pose (legHoldCommands): the
/// leg swings about its start instead of falling into the knee stop.
LegExcitation excitation(LegSide side, const motorgear::MabelTransmission::Params& leg, double amplitude_Nm) {
  const LegHold hold = legHoldCommands(stand(), side, leg, standInitialPose(stand(), side));
  LegExcitation x;
  x.mLA = shortChirp(amplitude_Nm, hold.u_mLA_Nm);
  x.mLS = shortChirp(amplitude_Nm, hold.u_mLS_Nm);
  return x;
}

LegExperiment siso(LegSide side, bool mLA) {
  LegExperiment e;
  e.side = side;
  e.actuated_mLA = mLA;
  e.actuated_mLS = !mLA;
  return e;
}

double range(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo;
}

std::filesystem::path tempFile(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST(MabelLegStand, HoldCommandsKeepTheLegStill) {
  // u = K_T tau_cable - b from the locked settle must hold the leg where it is when unlocked.
  LegExperiment e;  // MIMO: both motors free
  const auto leg = legParams(LegSide::Left);
  const LegPose pose = standInitialPose(stand(), LegSide::Left);
  const LegHold hold = legHoldCommands(stand(), LegSide::Left, leg, pose);
  // Gravity on q_LS at q_LS = 0.25 rad, q_LA = pi is some 4 N m on the link, 0.126 N m at the motor.
  EXPECT_GT(hold.u_mLS_Nm, 0.1);
  const std::vector<double> uA(3000, hold.u_mLA_Nm), uS(3000, hold.u_mLS_Nm);
  const LegResponse y = simulateLegExperiment(stand(), e, leg, pose.q_mLA_rad, pose.q_mLS_rad, uA, uS, 0.001);
  // It sags by the cable stretch (tau / K_C, some 0.04 rad at the motor) and rings down about the
  // start (the lightly damped q_LA mode decays at mu / 2J ~ 1.3 /s); without the offsets the
  // knee falls into its stop: q_mLS goes 7.9 -> 0 (measured by hand).
  EXPECT_LT(range(y.q_mLA_rad), 0.1);
  EXPECT_LT(range(y.q_mLS_rad), 0.1);
  EXPECT_NEAR(y.q_mLS_rad[2999], pose.q_mLS_rad, 2e-3);
  EXPECT_NEAR(y.q_mLA_rad[2999], pose.q_mLA_rad, 0.05);
}

TEST(MabelLegStand, LockedMotorsHoldAndTheLegMovesOnlyWithTheActuatedOne) {
  const LegExperiment e = siso(LegSide::Left, false);  // mLS actuated, mLA locked
  const auto leg = legParams(LegSide::Left);
  const LegPose pose = standInitialPose(stand(), LegSide::Left);
  // Rigid-cable pose of the stand file: hip -0.25, knee 0.5 -> q_LA = pi, q_LS = 0.25.
  EXPECT_NEAR(pose.q_mLA_rad, -23.53 * std::numbers::pi, 1e-9);
  EXPECT_NEAR(pose.q_mLS_rad, 31.42 * 0.25, 1e-9);
  const std::vector<double> uS(2000, 0.05), uA(2000, 0.3);  // u on the locked mLA must do nothing
  const LegResponse y = simulateLegExperiment(stand(), e, leg, pose.q_mLA_rad, pose.q_mLS_rad, uA, uS, 0.001);
  for (double q : y.q_mLA_rad) EXPECT_DOUBLE_EQ(q, pose.q_mLA_rad);
  EXPECT_GT(range(y.q_mLS_rad), 0.5);  // 0.05 N m against ~0.014 N m/rad of gravity: radians
  EXPECT_THROW(simulateLegExperiment(stand(), e, leg, pose.q_mLA_rad, pose.q_mLS_rad, uA, uS, 0.0015),
               std::invalid_argument);  // not a whole number of dt
}

TEST(MabelLegFriction, SisoRecoversTableVFrictionNoiseFree) {
  // eq. (19) on each motor of the left leg, from Table III's mu / K_T (20-33 % below Table V).
  for (const bool mLA : {false, true}) {
    SCOPED_TRACE(mLA ? "mLA" : "mLS");
    const LegExperiment e = siso(LegSide::Left, mLA);
    const auto leg = legParams(LegSide::Left);  // mu of Table V, b of Table IV (SISO, as the paper)
    const LegExcitation x = excitation(LegSide::Left, leg, 0.03);
    const LegExperimentLog log = synthesizeLegExperiment(stand(), e, leg, standInitialPose(stand(), LegSide::Left), x);
    // Inside the work space: the knee (q_LS = q_mLS / 31.42 = knee / 2) stays off its stops.
    for (double q : log.q_mLS_rad) ASSERT_GT(q / 31.42, 0.05);
    const LegParam p = mLA ? LegParam::mu_mLA : LegParam::mu_mLS;
    const double truth = tableVFriction_Nms(LegSide::Left, mLA);
    ASSERT_DOUBLE_EQ(legParamValue(leg, p), truth);
    const std::vector<LegParam> ps{p};
    const std::vector<double> start{tableIIIFriction_Nms(LegSide::Left, mLA)};
    ASSERT_GT(std::abs(start[0] - truth) / truth, 0.2);
    const LegFitResult r = fitLegParameters(stand(), e, leg, log, ps, start);
    EXPECT_TRUE(r.converged);
    EXPECT_NEAR(r.estimates[0].value, truth, 0.01 * truth);
    EXPECT_LT(r.cost_J_rad, 1e-3 * r.initial_cost_J_rad);
    // Exact data start exactly at the first sample: the fitted start offset is nil.
    EXPECT_NEAR(mLA ? r.start_offset_mLA_rad : r.start_offset_mLS_rad, 0.0, 1e-6);
    EXPECT_LE(r.simulations, 80);
  }
}

TEST(MabelLegFriction, QuantisedNoisyEncoderEstimateInsideItsInterval) {
  // The right leg's mLS with MABEL's 14-bit motor encoders and 2 mrad of white noise: the 95 %
  // interval must cover the truth, and the estimate stays within 2 %.
  const LegExperiment e = siso(LegSide::Right, false);
  const auto leg = legParams(LegSide::Right);
  LegExcitation x = excitation(LegSide::Right, leg, 0.03);
  x.encoder_rad = 2 * std::numbers::pi / 16384;
  x.noise_rad = 2e-3;
  x.seed = 7;
  const LegExperimentLog log = synthesizeLegExperiment(stand(), e, leg, standInitialPose(stand(), LegSide::Right), x);
  const double truth = tableVFriction_Nms(LegSide::Right, false);
  const std::vector<LegParam> ps{LegParam::mu_mLS};
  const std::vector<double> start{tableIIIFriction_Nms(LegSide::Right, false)};
  const LegFitResult r = fitLegParameters(stand(), e, leg, log, ps, start);
  EXPECT_TRUE(r.converged);
  const auto& est = r.estimates[0];
  EXPECT_GT(est.half_width, 0.0);
  EXPECT_NEAR(est.value, truth, est.half_width) << "interval " << est.half_width;
  EXPECT_NEAR(est.value, truth, 0.02 * truth);
  // The residual is the measurement noise: rms close to sqrt(sigma^2 + q^2/12).
  const double q = x.encoder_rad;
  EXPECT_NEAR(r.rms_rad, std::sqrt(x.noise_rad * x.noise_rad + q * q / 12), 0.1 * x.noise_rad);
}

TEST(MabelLegFriction, SisoWithUnknownBiasFitsMuAndBTogether) {
  // The log's leg has Table V's b (the biases "change slightly for each experimental trial"), not
  // the stand's Table IV one: mu and b of the left mLA fitted together, b started from the static
  // estimate.
  const LegExperiment e = siso(LegSide::Left, true);
  auto truth = legParams(LegSide::Left);
  truth.mLA.b_Nm = tableVBias_Nm(LegSide::Left, true);  // 0.026 vs Table IV's -0.047
  const LegExperimentLog log = synthesizeLegExperiment(stand(), e, truth, standInitialPose(stand(), LegSide::Left),
                                                       excitation(LegSide::Left, truth, 0.03));
  const auto leg = legParams(LegSide::Left);
  const LegHold b0 = staticBiasEstimate(stand(), e, leg, log);
  EXPECT_NEAR(b0.u_mLA_Nm, truth.mLA.b_Nm, 0.05 * std::abs(truth.mLA.b_Nm));  // a start, not the answer
  const std::vector<LegParam> ps{LegParam::mu_mLA, LegParam::b_mLA};
  const std::vector<double> start{tableIIIFriction_Nms(LegSide::Left, true), b0.u_mLA_Nm};
  const LegFitResult r = fitLegParameters(stand(), e, leg, log, ps, start);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.estimates[0].value, truth.mLA.mu_Nms_rad, 0.01 * truth.mLA.mu_Nms_rad);
  EXPECT_NEAR(r.estimates[1].value, truth.mLA.b_Nm, 0.02 * std::abs(truth.mLA.b_Nm));
}

TEST(MabelLegBias, MimoRecoversTableVBiases) {
  // eq. (20): both motors of the left leg actuated, mu fixed at Table V, b from 0.
  LegExperiment e;
  e.side = LegSide::Left;
  auto leg = legParams(LegSide::Left);
  leg.mLA.b_Nm = tableVBias_Nm(LegSide::Left, true);
  leg.mLS.b_Nm = tableVBias_Nm(LegSide::Left, false);
  LegExcitation x = excitation(LegSide::Left, leg, 0.03);
  x.mLS.amplitude_start_Nm = 0.02;
  x.mLS.f_start_Hz = 0.7;  // the two inputs at different frequencies
  const LegExperimentLog log = synthesizeLegExperiment(stand(), e, leg, standInitialPose(stand(), LegSide::Left), x);
  const std::vector<LegParam> ps{LegParam::b_mLA, LegParam::b_mLS};
  const std::vector<double> start{0.0, 0.0};
  const LegFitResult r = fitLegParameters(stand(), e, leg, log, ps, start);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.estimates[0].value, leg.mLA.b_Nm, 0.02 * std::abs(leg.mLA.b_Nm));
  EXPECT_NEAR(r.estimates[1].value, leg.mLS.b_Nm, 0.02 * std::abs(leg.mLS.b_Nm));
}

TEST(MabelLegFit, RejectsBadRequests) {
  const LegExperiment e = siso(LegSide::Left, false);
  const auto leg = legParams(LegSide::Left);
  LegExcitation x = excitation(LegSide::Left, leg, 0.03);
  x.mLS.f_start_Hz = 10;
  x.mLS.steps = 2;
  const LegExperimentLog log = synthesizeLegExperiment(stand(), e, leg, standInitialPose(stand(), LegSide::Left), x);
  const std::vector<double> s{1e-3};
  EXPECT_THROW(fitLegParameters(stand(), e, leg, log, std::vector<LegParam>{LegParam::mu_mLA}, s),
               std::invalid_argument);  // mLA is locked
  EXPECT_THROW(fitLegParameters(stand(), e, leg, log, std::vector<LegParam>{LegParam::mu_mLS}, std::vector<double>{-1}),
               std::invalid_argument);
  RobotModel floating = stand();
  floating.fixed_base = false;
  EXPECT_THROW(standLegIndex(floating, LegSide::Left), std::invalid_argument);
}

TEST(MabelLegLog, BadInputNamesFileLineAndColumn) {
  const LegExperiment e = siso(LegSide::Left, false);
  std::string rows;
  for (int k = 0; k < 12; ++k) rows += std::to_string(0.001 * k) + ",0.1,7.8\n";
  const auto missing = tempFile("gapsim_leg_missing.csv", "time_s,u_mLS_Nm,q_mLA_rad\n" + rows);
  try {
    LegExperimentLog::read(missing.string(), e);
    ADD_FAILURE() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.file(), missing.string());
    EXPECT_EQ(err.field(), "q_mLS_rad");
  }
  std::string back = "time_s,u_mLS_Nm,q_mLS_rad\n";
  for (int k = 0; k < 12; ++k) back += std::to_string(k == 6 ? 0.004 : 0.001 * k) + ",0.1,7.8\n";
  const auto nonmono = tempFile("gapsim_leg_nonmono.csv", back);
  try {
    LegExperimentLog::read(nonmono.string(), e);
    ADD_FAILURE() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.line(), 8);  // header line 1, row k = 6 on line 8
    EXPECT_EQ(err.field(), "time_s");
  }
  // The locked motor's columns are optional; a SISO log with only its own columns reads.
  const auto ok = tempFile("gapsim_leg_ok.csv", "time_s,u_mLS_Nm,q_mLS_rad\n" + rows);
  const LegExperimentLog log = LegExperimentLog::read(ok.string(), e);
  EXPECT_TRUE(log.q_mLA_rad.empty());
  EXPECT_EQ(log.u_mLA_Nm.size(), 12u);
  EXPECT_NEAR(log.sample_time_s, 0.001, 1e-12);
}
