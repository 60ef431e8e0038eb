// SPDX-License-Identifier: BSD-3-Clause
// sim/sim_state.h: a state taken and put back continues bit for bit; a golden hash pins a run.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "sim/ankle_balance.h"
#include "sim/motion_player.h"
#include "sim/motion_readers.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<const RobotModel> shipped(const std::string& name) {
  return std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile(name)));
}

/// A robot's full pipeline: its motion played by the motion player, under the controller the
/// motion names (the Nao walk: the ankle balance), as `gapsim-cli run` plays it.
struct Pipeline {
  Motion motion;
  MotionPlayer player;
  std::optional<Balanced> balanced;
  Pipeline(const RobotModel& m, const std::string& motion_file)
      : motion(loadMotion(std::string(GAPSIM_ROBOTS_DIR) + "/" + motion_file)), player(m, motion) {
    if (const auto p = motionController(motion)) balanced.emplace(m, *p, player);
  }
  Controller& controller() { return balanced ? static_cast<Controller&>(*balanced) : player; }
};

/// Runs `duration_s` and returns the log's CSV text (every sensor the recorder writes).
std::string runLog(Simulation& sim, Controller& c, double duration_s) {
  RunConfig cfg;
  cfg.duration_s = duration_s;
  cfg.log_period_s = 0.005;
  Log log(Recorder(sim.model()).columns());
  const RunSummary s = run(sim, c, {}, cfg, &log);
  EXPECT_FALSE(s.diverged) << s.divergence;
  return log.toCsv();
}

/// Run 2 s; save; run 1 s -> X; restore; run 1 s -> Y; X == Y byte for byte. The controller's own
/// state is not the simulation's: Y runs under a second pipeline brought to the same state by
/// the same 2 s on a second simulation.
void expectRestoreContinuesIdentically(const std::string& robot, const std::string& motion_file) {
  const auto m = shipped(robot);
  Simulation sim(m);
  Pipeline a(*m, motion_file);
  runLog(sim, a.controller(), 2.0);
  const SimState saved = sim.state();
  const std::string x = runLog(sim, a.controller(), 1.0);

  Simulation warmup(m);
  Pipeline b(*m, motion_file);
  runLog(warmup, b.controller(), 2.0);
  EXPECT_EQ(warmup.state().hash(), saved.hash()) << "two runs of the same 2 s differ";
  sim.setState(saved);
  EXPECT_EQ(sim.time_s(), 2.0);
  const std::string y = runLog(sim, b.controller(), 1.0);
  ASSERT_GT(x.size(), 1000u);
  EXPECT_TRUE(x == y) << "the restored run differs from the original";
}

TEST(SimState, NaoWalkWithBalanceContinuesByteIdentically) {
  expectRestoreContinuesIdentically("nao", "nao/motions/walk_100mm_s_1.5s.csv");
}

TEST(SimState, BioloidContinuesByteIdentically) {
  expectRestoreContinuesIdentically("bioloid", "bioloid/motions/wave.csv");
}

TEST(SimState, MabelWithCoupledDrivesAndCompliantGroundContinuesByteIdentically) {
  expectRestoreContinuesIdentically("mabel", "mabel/motions/stand.csv");
}

// The state matters: restoring an earlier state really moves the world back (a setState that
// did nothing would continue from 3 s, and X == Y above would then fail on the time column).
TEST(SimState, RestoringMovesTheWorldBack) {
  const auto m = shipped("nao");
  Simulation sim(m);
  for (int k = 0; k < 300; ++k) sim.step();
  const SimState early = sim.state();
  const Eigen::Vector3d com_early = sim.com_m();
  for (int k = 0; k < 300; ++k) sim.step();
  EXPECT_NE(sim.state().hash(), early.hash());
  sim.setState(early);
  EXPECT_EQ(sim.stepCount(), 300);
  EXPECT_EQ(sim.com_m(), com_early);
  EXPECT_EQ(sim.state().hash(), early.hash());
}

TEST(SimState, AStateOfAnotherRobotIsRefused) {
  Simulation nao(shipped("nao"));
  Simulation bioloid(shipped("bioloid"));
  EXPECT_THROW(nao.setState(bioloid.state()), std::invalid_argument);
}

// Golden: the Nao standing (full MoToFlex chains, QuickStep with its shuffled rows) for 500 steps
// hashes to this value on every run and every build with -ffp-contract=off. A change of the value
// is a change of behaviour: it goes with regenerated golden logs (tests/golden).
TEST(SimState, GoldenHashOfTheNaoStanding) {
  const auto m = shipped("nao");
  std::uint64_t hash[2];
  for (std::uint64_t& h : hash) {
    SimOptions options;
    options.seed = 7;
    Simulation sim(m, options);
    for (int k = 0; k < 500; ++k) sim.step();
    h = sim.state().hash();
  }
  EXPECT_EQ(hash[0], hash[1]);
  EXPECT_EQ(hash[0], 4064751724896774214ull) << hash[0];
}

}  // namespace
}  // namespace gapsim
