// SPDX-License-Identifier: BSD-3-Clause
// A real trial found by its recording's path, and its commands as a Motion: played by the common
// runner (runMotion, what the GUI's session does) they give the same simulated tilt as
// replayTrial (what `gapsim-cli replay` scores), bit for bit. Data: tests/calib/data/bioloid_lean
// (jietan/bioGP @936fb3a, LGPL-3.0).
#include "calib/replay_commands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/input_error.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

const std::string kData = std::string(GAPSIM_TEST_DATA_DIR) + "/bioloid_lean";
const std::string kTrial = kData + "/rising/lean-to-stand/0.05-01.csv";

MotorMap motorMap() { return MotorMap::read(std::string(GAPSIM_ROBOTS_DIR) + "/bioloid/motor_map.csv"); }

/// Simulated tilt at the recording's frames from a 1 ms log, interpolated as replayTrial does.
std::vector<double> tiltAtFrames(const ReplayTrial& t, const Motion& commands, const RobotModel& model,
                                 double settle_s) {
  Simulation sim(std::make_shared<const RobotModel>(model));
  Log log;
  const std::vector<double> t_rec = t.recording->column("time_s");
  RunConfig cfg;
  cfg.duration_s = settle_s + t_rec.back() - t_rec.front() + 0.002;
  cfg.log_period_s = sim.dt_s();
  log = Log(Recorder(model).columns());
  runMotion(sim, &commands, cfg, &log);
  const std::vector<double> ts = log.column("time_s"), tilt = log.column("torso/tilt_rad");
  std::vector<double> out;
  for (double tr : t_rec) {
    const double s = settle_s + tr - t_rec.front();
    const auto it = std::lower_bound(ts.begin(), ts.end(), s - 1e-12);
    const std::size_t k = static_cast<std::size_t>(it - ts.begin());
    if (k == 0) {
      out.push_back(tilt[0]);
      continue;
    }
    const double w = (s - ts[k - 1]) / (ts[k] - ts[k - 1]);
    out.push_back(tilt[k - 1] + std::clamp(w, 0.0, 1.0) * (tilt[k] - tilt[k - 1]));
  }
  return out;
}

}  // namespace

TEST(ReplayCommands, FindsTheTrialOfARecordingPath) {
  const ReplayTrial t = loadReplayTrial(kTrial);
  EXPECT_EQ(t.name, "0.05-01");
  EXPECT_TRUE(t.motion_path.ends_with("motions/lean-to-stand/0.05.csv"));
  ASSERT_TRUE(t.recording && t.motion);
  // Not inside a data package, or no such file: errors that name the file.
  EXPECT_TRUE(
      throwsSaying<InputError>([&] { loadReplayTrial(kData + "/motions/lean-to-stand/0.05.csv"); }, {"0.05.csv"}));
  EXPECT_THROW(loadReplayTrial(kData + "/rising/lean-to-stand/0.99-01.csv"), InputError);
}

TEST(ReplayCommands, HeldCommandsStepAtTheRecordedFramesInWholeTicks) {
  const ReplayTrial t = loadReplayTrial(kTrial);
  const MotorMap map = motorMap();
  const auto m = replayCommands(t, map, ReplayOptions{});
  const std::vector<double> t_rec = t.recording->column("time_s");
  ASSERT_EQ(m->frameCount(), 2 * t_rec.size() - 1);
  const int j = m->jointIndex("l_thigh");
  ASSERT_GE(j, 0);
  const MotorMapEntry* e = nullptr;
  for (const auto& x : map.entries)
    if (x.joint == "l_thigh") e = &x;
  ASSERT_NE(e, nullptr);
  // Between two recorded frames the command is frame k's, a whole tick.
  for (std::size_t k : {std::size_t{3}, t_rec.size() / 2}) {
    const double mid = 0.5 * (t_rec[k] + t_rec[k + 1]) - t_rec[0];
    const double q = m->sample(static_cast<std::size_t>(j), mid);
    const double tick = MotorMap::radToTick(*e, q);
    EXPECT_NEAR(tick, std::round(tick), 1e-6) << "frame " << k;
    EXPECT_EQ(q, m->sample(static_cast<std::size_t>(j), t_rec[k] - t_rec[0] + 1e-6));
  }
}

TEST(ReplayCommands, PlayedByTheRunnerTheyGiveReplayTrialsTilt) {
  const ReplayTrial t = loadReplayTrial(kTrial);
  const MotorMap map = motorMap();
  const RobotModel base = loadRobotFile(resolveRobotFile("bioloid"));
  for (const auto& [hold, settle_s] : {std::pair{true, 0.0}, std::pair{false, 0.0}, std::pair{true, 0.3}}) {
    ReplayOptions o;
    o.hold_commands = hold;
    o.settle_s = settle_s;
    const ReplayResult r = replayTrial(base, t, map, o);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const auto model = replayModel(base, t, o);
    const std::vector<double> tilt = tiltAtFrames(t, *replayCommands(t, map, o), *model, settle_s);
    ASSERT_EQ(tilt.size(), r.tilt_sim_rad.size());
    double max_diff = 0;
    for (std::size_t k = 0; k < tilt.size(); ++k) max_diff = std::max(max_diff, std::abs(tilt[k] - r.tilt_sim_rad[k]));
    // The same commands at the same steps give the same trajectory; only the interpolation
    // between steps is recomputed here.
    EXPECT_LT(max_diff, 1e-9) << (hold ? "held" : "continuous") << " commands, settle " << settle_s << " s";
  }
}
