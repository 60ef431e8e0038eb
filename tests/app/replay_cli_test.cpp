// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli replay and calibrate-replay as a user runs them, on two real BIOLOID lean-to-stand
// trials (tests/calib/data/bioloid_lean, LGPL-3.0, see its README): per-trial tilt RMS, a tiny
// calibration that writes best.params and summary.csv, refusal to overwrite, resume of a finished
// run, and bad input exiting 2 with the file and field. `calibrate --recordings` is the same
// calibration under the one calibrate command.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using gapsim::test::cli;
using gapsim::test::contains;
using gapsim::test::slurp;

const std::string kData = std::string(GAPSIM_SOURCE_DIR) + "/tests/calib/data/bioloid_lean";
const std::string kSpace = std::string(GAPSIM_SOURCE_DIR) + "/robots/bioloid/calibration/lean_space.csv";

TEST(ReplayCli, PrintsPerTrialTiltRmsAndECali) {
  auto r = cli("replay --recordings " + kData);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "0.05-01")) << r.out;
  EXPECT_TRUE(contains(r.out, "0.11-01")) << r.out;
  EXPECT_TRUE(contains(r.out, "E_cali")) << r.out;
  // The same run twice: byte-identical output (deterministic replays).
  EXPECT_EQ(cli("replay --recordings " + kData).out, r.out);
}

TEST(ReplayCli, BadInputExitsTwoNamingTheProblem) {
  auto r = cli("replay --recordings /nonexistent");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--recordings")) << r.out;
  r = cli("replay --recordings " + kData + " --set link/torso/mass=-1");
  EXPECT_EQ(r.code, 2) << r.out;
  r = cli("replay --recordings " + kData + " --settle -0.5");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--settle")) << r.out;
}

TEST(CalibrateReplayCli, TinyRunWritesResultsRefusesOverwriteAndResumes) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_calibrate_replay_cli_test";
  std::filesystem::remove_all(dir);
  const std::string cmd = "calibrate-replay --recordings " + kData + " --space " + kSpace +
                          " --trials '0.05-*' --generations 1 --lambda 2 --backend serial --no-sensitivity --out " +
                          dir.string();
  auto r = cli(cmd);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "best.params"));
  EXPECT_TRUE(contains(slurp((dir / "summary.csv").string()), "trial,role,rms_initial_rad,rms_best_rad"));
  // A non-empty results directory is refused (nothing is overwritten) ...
  r = cli(cmd);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "not empty")) << r.out;
  // ... and a finished run resumes with one more generation.
  r = cli("calibrate-replay --resume " + dir.string() + " --generations 2 --no-sensitivity");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "resumed at generation 1")) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CalibrateReplayCli, CalibrateWithRecordingsIsTheSameRunAndRefusesScenarioOptions) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "gapsim_calibrate_recordings_cli_test";
  fs::remove_all(dir);
  const std::string common = " --recordings " + kData + " --space " + kSpace +
                             " --trials '0.05-*' --generations 1 --lambda 2 --backend serial --no-sensitivity --out ";
  auto one = cli("calibrate" + common + (dir / "one").string());
  ASSERT_EQ(one.code, 0) << one.out;
  auto old = cli("calibrate-replay" + common + (dir / "old").string());
  ASSERT_EQ(old.code, 0) << old.out;
  for (const char* f : {"best.params", "history.csv", "summary.csv", "checkpoint.json"})
    EXPECT_EQ(slurp((dir / "one" / f).string()), slurp((dir / "old" / f).string())) << f;
  EXPECT_TRUE(contains(one.out, "recorded trials, objective E_cali (sum of w E")) << one.out;
  // calibrate --resume finds out from the checkpoint that the run is on recorded trials.
  auto more = cli("calibrate --resume " + (dir / "one").string() + " --generations 2 --no-sensitivity");
  ASSERT_EQ(more.code, 0) << more.out;
  EXPECT_TRUE(contains(more.out, "resumed at generation 1")) << more.out;
  // Options of the other kind of calibration are refused, naming the option.
  auto r = cli("calibrate" + common + (dir / "x").string() + " --objective F");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--objective")) << r.out;
  r = cli("calibrate --space " + kSpace + " --scenarios x.csv --trials '0.05-*' --out " + (dir / "y").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--trials")) << r.out;
  r = cli("calibrate" + common + (dir / "z").string() + " --scenarios x.csv");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(fs::exists(dir / "x") || fs::exists(dir / "y") || fs::exists(dir / "z"));
  fs::remove_all(dir);
}

}  // namespace
