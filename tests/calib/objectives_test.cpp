// SPDX-License-Identifier: BSD-3-Clause
// The objectives resync (calib/resync_objective.h) and gait_w1 (calib/distribution_objective.h)
// against analytic answers: W1 of sinusoids and offsets, the re-synchronised RMS of the model
// against its own log (exactly 0), of a logged offset on one joint (d / sqrt(J)), and a run that
// falls against one that walks (F dominated by the fall, resync bounded by the fall penalty).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "calib/distribution_objective.h"
#include "calib/objective.h"
#include "calib/resync_objective.h"
#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/motion_readers.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {
namespace {

const std::string kWalk =
    std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_walk_twin/motions/walk_100mm_s_0.8s.csv";

std::vector<double> sine(double A, double phase_rad, int n_per_period, int periods) {
  std::vector<double> v;
  for (int k = 0; k < n_per_period * periods; ++k) v.push_back(A * std::sin(2 * M_PI * k / n_per_period + phase_rad));
  return v;
}

// ---------------------------------------------------------------- Wasserstein-1

TEST(GaitW1, AConstantOffsetIsItsDistance) {
  // Shifting a distribution by d moves every quantile by d: W1 = d.
  std::vector<double> a = sine(0.3, 0.0, 100, 2), b = a;
  for (double& x : b) x += 0.07;
  EXPECT_NEAR(wasserstein1(a, b), 0.07, 1e-15);
}

TEST(GaitW1, PhaseShiftedSinusoidsHaveTheSameDistribution) {
  // A whole-sample shift over whole periods permutes the samples: W1 = 0 up to the rounding of
  // sin(x + phase) against sin(x') (a few ulp of 0.4: 1e-15).
  EXPECT_NEAR(wasserstein1(sine(0.4, 0.0, 100, 3), sine(0.4, 2 * M_PI * 37 / 100, 100, 3)), 0.0, 1e-15);
  // Any other phase: both sample the same arcsine distribution; their quantiles differ by at most
  // the largest step between neighbouring sorted samples, A 2 pi / N.
  EXPECT_LT(wasserstein1(sine(0.4, 0.0, 1000, 1), sine(0.4, 0.3, 1000, 1)), 0.4 * 2 * M_PI / 1000);
  // And a pointwise error would not be small: the RMS of A (sin x - sin(x + 0.3)) is 0.4 * 0.21.
}

TEST(GaitW1, ScaledSinusoidsDifferByTheAmplitudeTimesTwoOverPi) {
  // Equal phases pair the sorted samples: W1 = |A1 - A2| mean|sin| -> |A1 - A2| 2/pi; the grid's
  // mean of |sin| over 1000 samples of a period differs from 2/pi by O(1/N^2) (< 1e-5).
  const double w = wasserstein1(sine(0.5, 0.0, 1000, 1), sine(0.2, 0.0, 1000, 1));
  EXPECT_NEAR(w, 0.3 * 2 / M_PI, 1e-5);
  // Phase and amplitude together: still the amplitude term (phase costs nothing).
  EXPECT_NEAR(wasserstein1(sine(0.5, 0.0, 1000, 1), sine(0.2, 1.0, 1000, 1)), 0.3 * 2 / M_PI, 0.2 * 2 * M_PI / 1000);
}

TEST(GaitW1, UnequalSampleCountsUseTheMergedQuantiles) {
  // {0, 1} vs {0, 0.5, 1}: the quantile functions differ by 0.5 on (1/3, 1/2] and on (1/2, 2/3]:
  // W1 = 0.5 (1/6) + 0.5 (1/6) = 1/6.
  EXPECT_NEAR(wasserstein1({1.0, 0.0}, {0.5, 1.0, 0.0}), 1.0 / 6, 1e-15);
  EXPECT_NEAR(wasserstein1({0.5, 1.0, 0.0}, {1.0, 0.0}), 1.0 / 6, 1e-15);
  EXPECT_TRUE(std::isnan(wasserstein1({}, {1.0})));
  EXPECT_TRUE(std::isnan(wasserstein1({std::numeric_limits<double>::infinity()}, {1.0})));
}

TEST(GaitW1, TheFallenPartCountsAtThePenalty) {
  // 10 samples, the simulated joint 0.1 rad off; a fall at 0.045 s keeps 5 of 10 samples:
  // D = (5/10) 0.1 + (5/10) P = 0.05 + 0.25 with P = 0.5 rad. No fall: D = 0.1. A settle time of
  // 0.05 s leaves 5 samples, all after the fall: D = P.
  Log ref({"time_s", "J/q_rad", "K/x"}), sim({"time_s", "J/q_rad", "K/x"});
  for (int k = 0; k < 10; ++k) {
    ref.appendRow(std::vector<double>{0.01 * k, 0.0, 0.0});
    sim.appendRow(std::vector<double>{0.01 * k, 0.1, 5.0});
  }
  EXPECT_NEAR(distributionDistance(sim, ref, -1, 0.0, 0.5), 0.1, 1e-15);
  EXPECT_NEAR(distributionDistance(sim, ref, 0.045, 0.0, 0.5), 0.3, 1e-15);
  EXPECT_NEAR(distributionDistance(sim, ref, 0.045, 0.05, 0.5), 0.5, 1e-15);
  const std::vector<std::string> none{"other"};
  EXPECT_TRUE(std::isnan(distributionDistance(sim, ref, -1, 0.0, 0.5, &none)));
}

// ---------------------------------------------------------------- re-synchronisation

struct WalkRun {
  std::shared_ptr<const RobotModel> model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  Motion motion = loadMotion(kWalk);
  BalanceParams balance = parseBalanceParams("roll_rate=0.1;period=0.01");
  /// The continuous run's log: the model's own reference.
  Log reference(double duration_s, const Motion* m = nullptr) const {
    Simulation sim(model);
    RunConfig rc;
    rc.duration_s = duration_s;
    rc.balance = balance;
    Log log(Recorder(*model).columns());
    runMotion(sim, m ? m : &motion, rc, &log);
    return log;
  }
  ResyncScore resync(const Log& ref, double duration_s, double horizon_s, Log* log = nullptr,
                     const Motion* m = nullptr) const {
    Simulation sim(model);
    ResyncSettings s;
    s.horizon_s = horizon_s;
    return runResynchronised(sim, m ? m : &motion, balance, duration_s, ref, s, nullptr, log);
  }
};

int jointIndex(const RobotModel& m, const std::string& name) {
  for (std::size_t j = 0; j < m.joints.size(); ++j)
    if (m.joints[j].name == name) return static_cast<int>(j);
  return -1;
}

TEST(Resync, TheModelAgainstItsOwnLogScoresExactlyZero) {
  // Every residual is exactly 0, so no window start touches the state and the windows continue
  // the one run bit for bit (the controllers run on across windows).
  const WalkRun w;
  const Log ref = w.reference(2.0);
  Log log;
  const ResyncScore s = w.resync(ref, 2.0, 0.5, &log);
  EXPECT_EQ(s.windows, 4);
  EXPECT_EQ(s.fallen, 0);
  EXPECT_EQ(s.rms_rad, 0.0);
  ASSERT_EQ(log.rows(), ref.rows());
  for (std::size_t r = 0; r < ref.rows(); ++r)
    for (std::size_t c = 0; c < ref.cols(); ++c) ASSERT_EQ(log.at(r, c), ref.at(r, c)) << r << " " << ref.columns()[c];
}

TEST(Resync, ApplyingAResidualMovesThatJointAndKeepsTheStanceFoot) {
  // Forward kinematics re-places the bodies: the hinge reads its old angle + d, the others are
  // unchanged, the lowest foot stays where it was (x, y; z: its lowest point as high as before).
  // Tolerance 1e-9 rad / m: ODE reads the angles back from the body poses (rounding only).
  const WalkRun w;
  Simulation sim(w.model);
  for (int k = 0; k < 300; ++k) sim.step();
  const RobotModel& m = *w.model;
  const int j = jointIndex(m, "LShoulderPitch");
  ASSERT_GE(j, 0);
  std::vector<double> before(m.joints.size());
  for (std::size_t i = 0; i < before.size(); ++i) before[i] = sim.jointAngle_rad(static_cast<int>(i));
  const int foot = m.foot_contacts.front().link;
  const Eigen::Vector3d foot_before = sim.linkPose(foot).translation();
  std::vector<double> dq(m.joints.size(), 0.0), dqd(m.joints.size(), 0.0);
  dq[static_cast<std::size_t>(j)] = 0.2;
  applyResync(sim, dq, dqd, std::nullopt);
  for (std::size_t i = 0; i < before.size(); ++i)
    EXPECT_NEAR(sim.jointAngle_rad(static_cast<int>(i)), before[i] + (static_cast<int>(i) == j ? 0.2 : 0.0), 1e-9)
        << m.joints[i].name;
  // Both feet are on the ground at 0.3 s of standing: whichever is the anchor, an arm's move
  // leaves both feet in place.
  EXPECT_NEAR((sim.linkPose(foot).translation() - foot_before).norm(), 0.0, 1e-9);
  // The attitude residual turns the IMU's pitch by exactly that much (ZYX, yaw kept).
  const double pitch = sim.imu().pitch_rad, roll = sim.imu().roll_rad;
  applyResync(sim, std::vector<double>(m.joints.size(), 0.0), dqd, Eigen::Vector2d(0.05, -0.02));
  EXPECT_NEAR(sim.imu().pitch_rad, pitch + 0.05, 1e-9);
  EXPECT_NEAR(sim.imu().roll_rad, roll - 0.02, 1e-9);
}

TEST(Resync, ALoggedOffsetOnOneJointGivesItsShareOfTheRms) {
  // The reference logs one of J joints d too high. Every window start puts that joint at the
  // logged angle, and its servo pulls it back to its target within tens of milliseconds (0.05 s
  // of a 0.5 s window), so the error is d on that joint for nearly every sample and about 0 on
  // the others: R = sqrt(d^2 / J) = d / sqrt(J). 5 %: the pull-back time and the jolt's echo
  // in the other joints (measured 0.8 % above).
  const WalkRun w;
  Log ref = w.reference(2.0);
  const int c = ref.columnIndex("LShoulderRoll/q_rad");
  ASSERT_GE(c, 0);
  const double d = 0.02;
  Log shifted(ref.columns());
  for (std::size_t r = 0; r < ref.rows(); ++r) {
    std::vector<double> row(ref.row(r).begin(), ref.row(r).end());
    row[static_cast<std::size_t>(c)] += d;
    shifted.appendRow(row);
  }
  int J = 0;
  for (const std::string& name : ref.columns()) J += name.size() > 6 && name.substr(name.size() - 6) == "/q_rad";
  const ResyncScore s = w.resync(shifted, 2.0, 0.5);
  EXPECT_EQ(s.fallen, 0);
  EXPECT_NEAR(s.rms_rad, d / std::sqrt(J), 0.05 * d / std::sqrt(J)) << "J = " << J;
}

/// The log with `delta` added to one column.
Log withOffset(const Log& log, const std::string& column, double delta) {
  const int c = log.columnIndex(column);
  Log out(log.columns());
  for (std::size_t r = 0; r < log.rows(); ++r) {
    std::vector<double> row(log.row(r).begin(), log.row(r).end());
    if (c >= 0) row[static_cast<std::size_t>(c)] += delta;
    out.appendRow(row);
  }
  return out;
}

TEST(Resync, EachWindowStartsFromTheLoggedAttitudeAndAngles) {
  // A reference whose torso pitch reads delta = 0.05 rad more (an IMU bias) and whose
  // LShoulderRoll reads d = 0.2 rad more. At each window start the simulation takes both, so one
  // log period later (0.01 s) the simulated pitch is the unperturbed one + delta and the shoulder
  // + d, up to what 10 ms of motion and servo pull-back change (measured: 0.0511 and 0.190 rad).
  const WalkRun w;
  const Log own = w.reference(1.0);
  const Log ref = withOffset(withOffset(own, "torso/pitch_rad", 0.05), "LShoulderRoll/q_rad", 0.2);
  Log log;
  w.resync(ref, 1.0, 0.5, &log);
  const std::size_t r = 51;  // t = 0.51 s
  ASSERT_NEAR(log.at(r, 0), 0.51, 1e-9);
  const auto pitch = static_cast<std::size_t>(own.columnIndex("torso/pitch_rad"));
  const auto sh = static_cast<std::size_t>(own.columnIndex("LShoulderRoll/q_rad"));
  EXPECT_NEAR(log.at(r, pitch) - own.at(r, pitch), 0.05, 0.005);
  EXPECT_NEAR(log.at(r, sh) - own.at(r, sh), 0.2, 0.03);
  // Before the first window start nothing is re-synchronised: the run is the unperturbed one.
  EXPECT_EQ(log.at(50, pitch), own.at(50, pitch));
}

TEST(Resync, AFallCostsItsWindowsWhereFIsDominatedByIt) {
  // The simulated motion bends both hips hard forward from 1 s on (the robot topples at about
  // 1.3 s), the reference walks. F of the run to its fall against F of the same run to 0.99 s
  // (before the bend, where it equals the reference up to nothing): the few falling samples
  // outweigh everything else by orders of magnitude (measured 1e-9 against 1e-14). resync
  // restarts every 0.5 s window from the logged state; the windows from 1 s on fall again (the
  // hips stay bent) and count P^2 = 0.25 rad^2 each, the first two match exactly: R =
  // P sqrt(fallen / K) as long as no fallen window's own error exceeds P, finite and at most P.
  const WalkRun w;
  const double T_s = 3.0, P = 0.5;
  const Log ref = w.reference(T_s);
  std::vector<double> times;
  std::vector<std::vector<double>> values;
  const std::vector<std::string>& names = w.motion.joints();
  for (double t = 0; t <= T_s + 1e-9; t += 0.01) {
    times.push_back(t);
    std::vector<double> v(names.size());
    w.motion.sampleAll(t, v);
    if (t >= 1.0)
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == "LHipPitch" || names[i] == "RHipPitch") v[i] = -1.5;
    values.push_back(v);
  }
  const Motion falling(names, times, values);
  Simulation sim(w.model);
  RunConfig rc;
  rc.duration_s = T_s;
  rc.balance = w.balance;
  rc.stop_on_fall = true;
  Log fall_log(Recorder(*w.model).columns());
  const RunSummary run = runMotion(sim, &falling, rc, &fall_log);
  ASSERT_TRUE(run.fall_time_s) << "the bent hips did not topple the robot";
  EXPECT_LT(*run.fall_time_s, 2.0);
  const ScenarioScore f_fall = compareLogs(fall_log, ref, *run.fall_time_s, 5.0, 0.01);
  const ScenarioScore f_up = compareLogs(fall_log, ref, 0.99, 5.0, 0.01);
  EXPECT_GT(f_fall.F, 1e3 * f_up.F) << "F is not dominated by the fall";

  const ResyncScore r = w.resync(ref, T_s, 0.5, nullptr, &falling);
  EXPECT_EQ(r.windows, 6);
  EXPECT_GE(r.fallen, 3);  // the windows from 1.5 s on, at least
  EXPECT_TRUE(std::isfinite(r.rms_rad));
  EXPECT_LE(r.rms_rad, P);
  EXPECT_NEAR(r.rms_rad, P * std::sqrt(static_cast<double>(r.fallen) / r.windows), 1e-3);
}

// ---------------------------------------------------------------- settings

TEST(Objectives, ParseAndValidateNameTheOptionAndTheValue) {
  EXPECT_EQ(parseObjectiveKind("resync"), ObjectiveKind::Resync);
  EXPECT_EQ(parseObjectiveKind("gait_w1"), ObjectiveKind::GaitW1);
  EXPECT_EQ(toString(ObjectiveKind::GaitW1), "gait_w1");
  EXPECT_EQ(toString(ObjectiveKind::Resync), "resync");
  try {
    parseObjectiveKind("w1");
    ADD_FAILURE() << "accepted 'w1'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--objective: expected F, E_cali, sum, resync or gait_w1, not 'w1'"),
              std::string::npos)
        << e.what();
  }
  for (double h : {0.0, std::numeric_limits<double>::quiet_NaN(), 1e308, -1.0, 0.001}) {
    ObjectiveSettings s;
    s.resync_horizon_s = h;
    EXPECT_THROW(validateObjectiveSettings(s), InputError) << h;
  }
  ObjectiveSettings s;
  s.w1_settle_s = -1;
  EXPECT_THROW(validateObjectiveSettings(s), InputError);
  EXPECT_NO_THROW(validateObjectiveSettings(ObjectiveSettings{}));
}

}  // namespace
}  // namespace gapsim::calib
