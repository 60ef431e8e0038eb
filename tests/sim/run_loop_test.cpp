// SPDX-License-Identifier: BSD-3-Clause
// The run loop (sim/run_loop.h): the controller runs once before the run and before every step,
// observers after every step, their log values follow the recorder's columns, an observer can
// stop the run, and the motion player with the balance decorator sets what runMotion sets.
#include "sim/run_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/motion_player.h"
#include "sim/motion_readers.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<const RobotModel> pendulum() {
  return std::make_shared<const RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/pendulum.urdf"));
}

/// Sets target = a t on joint 0 and counts its calls.
class Ramp : public Controller {
 public:
  void start(Simulation& sim) override {
    ++starts;
    sim.setTargets(std::vector<double>{0.0});
  }
  void update(Simulation& sim) override {
    ++updates;
    sim.setTargets(std::vector<double>{0.1 * sim.time_s()});
  }
  int starts = 0, updates = 0;
};

/// Counts steps, logs the step count, stops after `stop_after` steps.
class Counter : public Observer {
 public:
  explicit Counter(long stop_after) : stop_after_(stop_after) {}
  void afterStep(const Simulation& sim) override { seen = sim.stepCount(); }
  void appendLogValues(std::vector<double>& row) const override { row.push_back(static_cast<double>(seen)); }
  bool stopRequested() const override { return seen >= stop_after_; }
  long seen = 0;

 private:
  long stop_after_;
};

/// The pendulum under a Ramp, watched by a Counter that stops it after `stop_after` steps, for
/// `duration_s`.
struct CountedRampRun {
  CountedRampRun(long stop_after, double duration_s) : counter(stop_after) { cfg.duration_s = duration_s; }
  RunSummary run(Log* log) { return gapsim::run(sim, ramp, observers, cfg, log); }

  Simulation sim{pendulum()};
  Ramp ramp;
  Counter counter;
  Observer* const observers[1] = {&counter};
  RunConfig cfg;
};

TEST(RunLoop, AdvancedInPiecesItTakesTheStepsOfOneRun) {
  // What the GUI's worker does (a sample at a time, as the wall clock allows) against run().
  RunConfig cfg;
  cfg.duration_s = 0.5;
  cfg.log_period_s = 0.01;
  Simulation whole(pendulum()), pieces(pendulum());
  Ramp r1, r2;
  Log a(Recorder(whole.model(), {}).columns()), b(Recorder(pieces.model(), {}).columns());
  const RunSummary sa = run(whole, r1, {}, cfg, &a);
  RunLoop loop(pieces, r2, {}, cfg, &b);
  loop.start();
  int calls = 0;
  for (long n : {1L, 7L, 10L, 123L, 1000L}) {
    ++calls;
    if (!loop.advance(n)) break;
  }
  EXPECT_EQ(calls, 5);  // the last call ran out at the duration
  EXPECT_TRUE(loop.finished());
  EXPECT_FALSE(loop.advance(10));  // a finished run takes no more steps
  EXPECT_EQ(pieces.stepCount(), whole.stepCount());
  EXPECT_EQ(r2.updates, r1.updates);
  ASSERT_EQ(b.rows(), a.rows());
  for (std::size_t i = 0; i < a.rows(); ++i) EXPECT_TRUE(std::ranges::equal(a.row(i), b.row(i))) << "row " << i;
  EXPECT_EQ(loop.summary().sim_time_s, sa.sim_time_s);
  EXPECT_EQ(loop.summary().distance_m, sa.distance_m);
  // Without an end: it runs as long as it is advanced.
  RunConfig open = cfg;
  open.duration_s = std::numeric_limits<double>::infinity();
  Simulation endless(pendulum());
  Ramp r3;
  RunLoop forever(endless, r3, {}, open, nullptr);
  forever.start();
  EXPECT_TRUE(forever.advance(2000));
  EXPECT_EQ(endless.stepCount(), 2000);
  EXPECT_FALSE(forever.finished());
}

TEST(RunLoop, ControllerBeforeEachStepObserversAfterAndTheirColumnsLast) {
  CountedRampRun counted(1000000, 0.5);
  counted.cfg.log_period_s = 0.1;
  const Simulation& sim = counted.sim;
  std::vector<std::string> columns = Recorder(sim.model()).columns();
  columns.push_back("counter/steps");
  Log log(columns);
  const RunSummary s = counted.run(&log);
  const long steps = std::lround(0.5 / sim.dt_s());
  EXPECT_EQ(counted.ramp.starts, 1);
  EXPECT_EQ(counted.ramp.updates, steps);
  EXPECT_EQ(counted.counter.seen, steps);
  EXPECT_EQ(s.steps, steps);
  EXPECT_DOUBLE_EQ(s.sim_time_s, sim.time_s());
  // Rows at t = 0, 0.1, ..., 0.5; the observer's value is the last column of each.
  ASSERT_EQ(log.rows(), 6u);
  const std::size_t w = Recorder(sim.model()).columns().size();
  for (std::size_t r = 0; r < log.rows(); ++r)
    EXPECT_DOUBLE_EQ(log.row(r)[w], static_cast<double>(r) * std::lround(0.1 / sim.dt_s()));
  // The controller's last target was set before the last step, at t = 0.5 - dt.
  EXPECT_NEAR(sim.targets()[0], 0.1 * (0.5 - sim.dt_s()), 1e-12);
}

TEST(RunLoop, AnObserverStopsTheRun) {
  CountedRampRun counted(37, 5.0);
  const RunSummary s = counted.run(nullptr);
  EXPECT_EQ(s.steps, 37);
  EXPECT_FALSE(s.diverged);
}

TEST(RunLoop, MotionPlayerWithBalanceIsWhatRunMotionPlays) {
  // The Nao's 200 mm/s walk for 1.5 s: runMotion with the walk's balance, and run() with the
  // player wrapped in the decorator by hand, give the same log bit for bit.
  const auto model = std::make_shared<const RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  const Motion walk = loadMotion(std::string(GAPSIM_ROBOTS_DIR) + "/nao/motions/walk_200mm_s_1s.csv");
  RunConfig cfg;
  cfg.duration_s = 1.5;
  cfg.balance = motionController(walk);
  ASSERT_TRUE(cfg.balance);
  Log a(Recorder(*model).columns()), b(Recorder(*model).columns());
  Simulation sa(model), sb(model);
  runMotion(sa, &walk, cfg, &a);
  MotionPlayer player(*model, walk);
  Balanced balanced(*model, *cfg.balance, player);
  run(sb, balanced, {}, cfg, &b);
  ASSERT_EQ(a.rows(), b.rows());
  for (std::size_t r = 0; r < a.rows(); ++r) {
    const auto ra = a.row(r), rb = b.row(r);
    ASSERT_TRUE(std::equal(ra.begin(), ra.end(), rb.begin(), rb.end())) << "row " << r;
  }
  EXPECT_NE(sa.targets(), std::vector<double>(model->initial_q));
}

}  // namespace
}  // namespace gapsim
