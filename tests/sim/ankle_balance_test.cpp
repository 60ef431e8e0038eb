// SPDX-License-Identifier: BSD-3-Clause
// Gyro feedback on the stance ankles (sim/ankle_balance.h): the load shares, the parser's errors,
// the robots it refuses, the correction it holds, and what it is for: it damps the torso's
// rocking in the walking twin's held-out walk, and its heading hold turns a walk by what the
// walk plans (docs/walk.md, "Ankle balance").
#include "sim/ankle_balance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "expect_input_error.h"
#include "sim/motion_player.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "sim/walk_generator.h"
#include "twin_walk.h"

using namespace gapsim;

TEST(AnkleBalance, LoadSharesFollowTheFootForces) {
  const auto s = footLoadShares(30.0, 10.0, 5.0);
  EXPECT_DOUBLE_EQ(s[0], 0.75);
  EXPECT_DOUBLE_EQ(s[1], 0.25);
  const auto air = footLoadShares(2.0, 1.0, 5.0);  // 3 N in total: in the air, half each
  EXPECT_DOUBLE_EQ(air[0], 0.5);
  EXPECT_DOUBLE_EQ(air[1], 0.5);
  const auto pull = footLoadShares(-4.0, 20.0, 5.0);  // a pulling contact carries nothing
  EXPECT_DOUBLE_EQ(pull[0], 0.0);
  EXPECT_DOUBLE_EQ(pull[1], 1.0);
}

TEST(AnkleBalance, ParsesItsKeysAndNamesTheBadOne) {
  const BalanceParams p = parseBalanceParams("roll_rate=0.2; pitch_rate=-0.01;period=0.005,min_load=8");
  EXPECT_DOUBLE_EQ(p.roll_rate_gain_s, 0.2);
  EXPECT_DOUBLE_EQ(p.pitch_rate_gain_s, -0.01);
  EXPECT_DOUBLE_EQ(p.period_s, 0.005);
  EXPECT_DOUBLE_EQ(p.min_load_N, 8.0);
  EXPECT_DOUBLE_EQ(parseBalanceParams("").roll_rate_gain_s, BalanceParams{}.roll_rate_gain_s);
  gapsim::test::expectInputError([] { parseBalanceParams("roll=0.1"); }, 0, "roll", "unknown balance parameter");
  gapsim::test::expectInputError([] { parseBalanceParams("roll_rate=fast"); }, 0, "roll_rate", "not a number");
  gapsim::test::expectInputError([] { parseBalanceParams("period=0"); }, 0, "period", "out of range");
  gapsim::test::expectInputError([] { parseBalanceParams("roll_rate"); }, 0, "balance", "not key=value");
  const BalanceParams h = parseBalanceParams("heading=0.5,max_yaw=0.05");
  EXPECT_DOUBLE_EQ(h.heading_gain_rad_per_rad, 0.5);
  EXPECT_DOUBLE_EQ(h.max_yaw_correction_rad, 0.05);
  EXPECT_DOUBLE_EQ(BalanceParams{}.heading_gain_rad_per_rad, 0.0);  // off unless asked for
  gapsim::test::expectInputError([] { parseBalanceParams("max_yaw=-0.1"); }, 0, "max_yaw", "out of range");
  gapsim::test::expectInputError([] { parseBalanceParams("heading=nan"); }, 0, "heading", "");
}

TEST(AnkleBalance, RefusesARobotWithoutAnkleRollAndPitchAboveItsFeet) {
  // MABEL's "feet" are its shin ends: no ankle joints.
  const RobotModel mabel = loadRobotFile(resolveRobotFile("mabel"));
  try {
    AnkleBalance b(mabel, BalanceParams{});
    FAIL() << "MABEL has no ankles";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "balance");
    EXPECT_NE(std::string(e.what()).find("ankle roll"), std::string::npos) << e.what();
  }
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  EXPECT_NO_THROW(AnkleBalance(nao, BalanceParams{}));
  // The heading hold needs a joint with a vertical axis component in each leg: a Nao whose hip
  // yaw-pitch joints turn about y has none.
  RobotModel no_yaw = nao;
  for (const char* j : {"LHipYawPitch", "RHipYawPitch"})
    no_yaw.joints[static_cast<std::size_t>(no_yaw.jointIndex(j))].axis = Eigen::Vector3d::UnitY();
  EXPECT_NO_THROW(AnkleBalance(no_yaw, BalanceParams{}));
  BalanceParams hold;
  hold.heading_gain_rad_per_rad = 0.5;
  try {
    AnkleBalance b(no_yaw, hold);
    FAIL() << "no hip yaw joint";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "balance");
    EXPECT_NE(std::string(e.what()).find("hip yaw"), std::string::npos) << e.what();
  }
}

TEST(AnkleBalance, HoldsLoadShareTimesGainTimesGyroForOnePeriod) {
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  Simulation sim(model);
  BalanceParams p;
  p.roll_rate_gain_s = 0.3;
  p.pitch_rate_gain_s = -0.2;
  p.period_s = 0.005;  // 5 steps of 1 ms
  AnkleBalance b(*model, p);
  EXPECT_EQ(b.adjust(sim, model->initial_q), model->initial_q);  // step 0: nothing measured, nothing added
  // Let the robot settle onto its feet for 0.2 s, then read what the controller reads.
  sim.setTargets(model->initial_q);
  for (int k = 0; k < 200; ++k) sim.step();
  ASSERT_EQ(sim.stepCount() % 5, 0);
  const Eigen::Vector3d w = sim.imu().gyro_rad_s;
  const auto share = footLoadShares(sim.footContact(0).force_N, sim.footContact(1).force_N, p.min_load_N);
  ASSERT_GT(std::abs(w.x()) + std::abs(w.y()), 0.0);
  const std::vector<double> t = b.adjust(sim, model->initial_q);
  const char* roll[2] = {"LAnkleRoll", "RAnkleRoll"};  // Nao: foot contact 0 is LFoot, axes +x and +y
  const char* pitch[2] = {"LAnklePitch", "RAnklePitch"};
  for (int i = 0; i < 2; ++i) {
    const auto r = static_cast<std::size_t>(model->jointIndex(roll[i]));
    const auto q = static_cast<std::size_t>(model->jointIndex(pitch[i]));
    EXPECT_NEAR(t[r] - model->initial_q[r], share[static_cast<std::size_t>(i)] * 0.3 * w.x(), 1e-15) << roll[i];
    EXPECT_NEAR(t[q] - model->initial_q[q], share[static_cast<std::size_t>(i)] * -0.2 * w.y(), 1e-15) << pitch[i];
  }
  // Inside the period the held value is added again to the motion's target, unchanged however the
  // robot moved, and never accumulates (a motion that leaves the ankles alone passes the same base).
  sim.step();
  EXPECT_EQ(b.adjust(sim, model->initial_q), t);
  sim.step();
  EXPECT_EQ(b.adjust(sim, model->initial_q), t);
}

namespace {

/// RMS of the torso roll (rad) from 3 s (walking) to the end of the walking twin's held-out
/// walk, hidden parameter set, full pipeline, the robot file's solver.
double heldOutWalkRollRms_rad(const std::optional<BalanceParams>& balance) {
  const test::TwinWalk w = test::runTwinWalk("walk_120mm_s_1.5s.csv", 8.5, balance);
  const RunSummary& s = w.summary;
  const Log& log = w.log;
  EXPECT_FALSE(s.diverged) << s.divergence;
  EXPECT_FALSE(s.fall_time_s.has_value());
  const auto roll = log.column("torso/roll_rad");
  double sum = 0;
  int n = 0;
  for (std::size_t r = 300; r < roll.size(); ++r, ++n) sum += roll[r] * roll[r];
  return std::sqrt(sum / n);
}

}  // namespace

TEST(AnkleBalance, DampsTheTorsoRollOfTheHeldOutTwinWalk) {
  // Measured: 0.034 rad open loop, 0.022 rad with roll_rate 0.1 s at 100 Hz.
  const double open = heldOutWalkRollRms_rad(std::nullopt);
  const double closed = heldOutWalkRollRms_rad(BalanceParams{});
  EXPECT_GT(open, 0.025);
  EXPECT_LT(closed, 0.8 * open) << "open loop " << open << " rad";
}

namespace {

struct TurnRun {
  double heading_rad = 0;          ///< the torso's yaw at the end (from its pose)
  double gyro_heading_rad = 0;     ///< the balance's heading, integrated from the gyro
  double planned_heading_rad = 0;  ///< the heading the motion's hip yaw targets plan
};

/// The Nao, full pipeline at the robot file's solver, plays `motion` with `balance` through the
/// run loop's controllers (a motion player wrapped by the balance, as runMotion does).
TurnRun playWithBalance(const Motion& motion, const BalanceParams& balance) {
  auto model = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  Simulation sim(model);
  MotionPlayer player(*model, motion);
  AnkleBalance b(*model, balance);
  player.start(sim);
  sim.setTargets(b.adjust(sim, sim.targets()));
  const int torso = model->imus.front().link;
  auto yaw = [&] {
    const Eigen::Matrix3d R = sim.linkPose(torso).linear();
    return std::atan2(R(1, 0), R(0, 0));
  };
  const double yaw0 = yaw();
  while (sim.time_s() < motion.duration_s()) {
    sim.step();
    player.update(sim);
    sim.setTargets(b.adjust(sim, sim.targets()));
  }
  EXPECT_FALSE(sim.fallTime_s().has_value()) << "fell at " << sim.fallTime_s().value_or(0) << " s";
  return {yaw() - yaw0, b.heading_rad(), b.plannedHeading_rad()};
}

}  // namespace

TEST(AnkleBalance, HeadingHoldTurnsAWalkByWhatItsHipYawTargetsPlan) {
  // A walk turning at 0.2 rad/s for 12 steps: the feet end turned by the plan's last footstep.
  const WalkPlan plan = planWalk(loadRobotFile(resolveRobotFile("nao")),
                                 parseWalkParams("speed=0.1,turn_rate=0.2,step_duration=1.0,steps=12"));
  const double planned_turn_rad = plan.footsteps.back().yaw_rad;
  ASSERT_GT(planned_turn_rad, 0.9);
  const Motion walk = plan.motion();
  BalanceParams hold = *parseMotionController(kWalkController);
  ASSERT_GT(hold.heading_gain_rad_per_rad, 0.0);
  BalanceParams open = hold;
  open.heading_gain_rad_per_rad = 0;

  const TurnRun held = playWithBalance(walk, hold);
  // The turn the balance reads from the hip yaw targets is the generator's (to 3 deg: the load
  // shares blur which foot stood while the targets changed), its gyro heading the torso's.
  EXPECT_NEAR(held.planned_heading_rad, planned_turn_rad, 0.05);
  EXPECT_NEAR(held.gyro_heading_rad, held.heading_rad, 0.01);
  EXPECT_NEAR(held.heading_rad, planned_turn_rad, 0.05);
  // Without the hold, the HipYawPitch's stick-slip decides the turn: measured 49 deg of 63.
  const TurnRun free = playWithBalance(walk, open);
  EXPECT_GT(std::abs(free.heading_rad - planned_turn_rad), 2 * std::abs(held.heading_rad - planned_turn_rad))
      << "open loop " << free.heading_rad << " rad, held " << held.heading_rad << " rad";
}
