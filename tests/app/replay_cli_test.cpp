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

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

const std::string kData = std::string(GAPSIM_SOURCE_DIR) + "/tests/calib/data/bioloid_lean";
const std::string kSpace = std::string(GAPSIM_SOURCE_DIR) + "/robots/bioloid/calibration/lean_space.csv";

TEST(ReplayCli, PrintsPerTrialTiltRmsAndECali) {
  auto r = cli("replay --recordings " + kData);
  ASSERT_TRUE(exitedWith(r, 0, {"0.05-01", "0.11-01", "E_cali"}));
  // The same run twice: byte-identical output (deterministic replays).
  EXPECT_EQ(cli("replay --recordings " + kData).out, r.out);
}

TEST(ReplayCli, BadInputExitsTwoNamingTheProblem) {
  EXPECT_TRUE(cliExits("replay --recordings /nonexistent", 2, {"--recordings"}));
  EXPECT_TRUE(cliExits("replay --recordings " + kData + " --set link/torso/mass=-1", 2));
  EXPECT_TRUE(cliExits("replay --recordings " + kData + " --settle -0.5", 2, {"--settle"}));
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
  EXPECT_TRUE(cliExits(cmd, 2, {"not empty"}));
  // ... and a finished run resumes with one more generation.
  ASSERT_TRUE(cliExits("calibrate-replay --resume " + dir.string() + " --generations 2 --no-sensitivity", 0,
                       {"resumed at generation 1"}));
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
  ASSERT_TRUE(cliExits("calibrate --resume " + (dir / "one").string() + " --generations 2 --no-sensitivity", 0,
                       {"resumed at generation 1"}));
  // Options of the other kind of calibration are refused, naming the option.
  EXPECT_TRUE(cliExits("calibrate" + common + (dir / "x").string() + " --objective F", 2, {"--objective"}));
  EXPECT_TRUE(
      cliExits("calibrate --space " + kSpace + " --scenarios x.csv --trials '0.05-*' --out " + (dir / "y").string(), 2,
               {"--trials"}));
  EXPECT_TRUE(cliExits("calibrate" + common + (dir / "z").string() + " --scenarios x.csv", 2));
  EXPECT_FALSE(fs::exists(dir / "x") || fs::exists(dir / "y") || fs::exists(dir / "z"));
  fs::remove_all(dir);
}

}  // namespace
