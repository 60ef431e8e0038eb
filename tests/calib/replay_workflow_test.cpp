// SPDX-License-Identifier: BSD-3-Clause
// The replay workflow (calib/replay_workflow.h) called as a library: a shipped simulator-made set
// replays to ~0 on the model that made it and is told apart on another model (the second
// parameter file), the per-trial files are written, and options and result survive JSON.
#include "calib/replay_workflow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/input_error.h"
#include "sim/log_writer.h"
#include "tests/scratch_files.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

namespace fs = std::filesystem;

RecordingReplayOptions squatOptions() {
  RecordingReplayOptions o;
  o.recordings = std::string(GAPSIM_SOURCE_DIR) + "/examples/recordings/bioloid_squat";
  o.trials = "squat-01";
  return o;
}

}  // namespace

TEST(ReplayWorkflow, ReplaysItsOwnSetToZeroAndTellsAnotherModelApart) {
  const fs::path dir = test::freshDir("gapsim_replay_workflow_test");
  std::ofstream(dir / "weak.params") << "name,value\nservos/servo/stall_torque,1.4\n";
  RecordingReplayOptions o = squatOptions();
  o.compare_params = (dir / "weak.params").string();
  o.out_dir = dir.string();
  RecordingReplay replay(o);
  EXPECT_EQ(replay.header().trials, 1);
  EXPECT_EQ(replay.header().headline, "torso/tilt_deg");
  EXPECT_FALSE(replay.header().wall);  // the set says authors_wall false
  int called = 0;
  const RecordingReplayResult r = replay.run([&](const ReplayTrialRow& row) {
    ++called;
    EXPECT_EQ(row.trial, "squat-01");
  });
  EXPECT_EQ(called, 1);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.failed, 0);
  // The recording was made by this model with the same steps: only deg <-> rad rounding remains.
  EXPECT_LT(r.mean_rms, 1e-9);
  EXPECT_EQ(r.mean_rms, r.rows[0].rms);
  // Weaker servos (stall torque 1.4 instead of 1.8 N m) sag under the squat's load: the recording
  // is not matched trivially.
  ASSERT_TRUE(r.rows[0].compared);
  EXPECT_GT(r.mean_rms_compare, 1e-3);
  EXPECT_GT(r.rows[0].max_real, 0.0);
  const Log tilt = Log::read((dir / "squat-01_tilt.csv").string());
  EXPECT_GT(tilt.rows(), 10u);
  EXPECT_TRUE(fs::exists(dir / "squat-01_sim.csv"));
  fs::remove_all(dir);
}

TEST(ReplayWorkflow, RefusesABadSettleTimeBeforeReadingAnything) {
  RecordingReplayOptions o = squatOptions();
  o.recordings = "/nonexistent";
  o.settle_s = -0.5;
  EXPECT_TRUE(throwsSaying<InputError>([&] { RecordingReplay replay(o); }, {"--settle"}));
  o.settle_s = 1e308;  // quoted as a number a reader can take in, not its 309 digits
  try {
    RecordingReplay replay(o);
    FAIL() << "a settle time of 1e308 s was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("got 1e+308"), std::string::npos) << e.what();
    EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
  }
}

TEST(ReplayWorkflow, OptionsAndResultSurviveJson) {
  RecordingReplayOptions o = squatOptions();
  o.sets = {"servos/servo/stall_torque=1.5", "link/torso/mass=0.3"};
  o.wall_face_x_m = -0.1;
  o.sim_seed = 18446744073709551615ull;  // the largest seed: kept exactly, as a string
  const RecordingReplayOptions o2 = RecordingReplayOptions::fromJson(nlohmann::json::parse(o.toJson().dump()));
  EXPECT_EQ(o2.toJson(), o.toJson());
  EXPECT_EQ(o2.sim_seed, o.sim_seed);
  EXPECT_EQ(*o2.wall_face_x_m, -0.1);

  RecordingReplayResult r;
  r.trials = 1;
  r.model_name = "bioloid_gp";
  r.headline = "torso/tilt_deg";
  ReplayTrialRow ok;
  ok.trial = "squat-01";
  ok.rms = 1.5e-10;
  ok.E = 3e-20;
  ok.max_real = 0.3;
  ok.max_sim = 0.31;
  r.rows.push_back(ok);
  r.mean_rms = ok.rms;
  r.mean_E = ok.E;
  ReplayTrialRow failed;
  failed.trial = "diverged-01";
  failed.error = "diverged at t = 0.5 s";
  r.rows.push_back(failed);  // its scores are +inf, which JSON cannot hold
  ++r.failed;
  ++r.trials;
  const RecordingReplayResult back = RecordingReplayResult::fromJson(nlohmann::json::parse(r.toJson().dump()));
  EXPECT_EQ(back.toJson(), r.toJson());
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(back.rows[0].rms, r.rows[0].rms);
  EXPECT_TRUE(std::isinf(back.rows[1].rms));
  EXPECT_TRUE(std::isnan(back.mean_rms_compare));  // no second parameter file
  EXPECT_EQ(back.replayed(), 1);
}
