// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli identify servo and run --motion X.mtn --page NAME, as a user runs them.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

const std::string kSlope32 = std::string(GAPSIM_SOURCE_DIR) + "/tests/calib/data/ankle_r_foot_slope32.csv";
const std::string kMtn = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/mtn/";

}  // namespace

TEST(IdentifyCli, ServoOnTheRealLog) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_identify_cli_test";
  std::filesystem::remove_all(dir);
  Result r = cli("identify servo --log " + kSlope32 + " --out " + dir.string());
  ASSERT_TRUE(exitedWith(r, 0,
                         {"kp = ", "95% confidence interval", "Student-t", "the paper does not give I",
                          "rms(q_sim - q)", "replay_rms_rad="}));
  EXPECT_TRUE(std::filesystem::exists(dir / "ankle_r_foot_slope32_servo_id.csv"));
  // The PNG exists exactly when the output says where it is.
  EXPECT_EQ(contains(r.out, "figure (paper's Fig. 2): "),
            std::filesystem::exists(dir / "ankle_r_foot_slope32_servo_id.png"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "figure")) << r.out;
}

// The simulation fit: one log, one model, a small budget: the table and the machine line.
TEST(IdentifyCli, ServoModelsBySimulation) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_identify_cli_sim_test";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(
      cliExits("identify servo --logs " + kSlope32 + " --models M1 --evals 300 --no-polish --out " + dir.string(), 0,
               {"model M1 (Coulomb-viscous)", "held-out RMS (rad)", "best_model=M1"}));
  EXPECT_TRUE(std::filesystem::exists(dir / "servo_models_heldout.csv"));
  // The paper's method is labelled so.
  ASSERT_TRUE(cliExits("identify servo --method paper --log " + kSlope32 + " --out " + dir.string(), 0,
                       {"the paper's method"}));
  // Bad input names the option.
  EXPECT_TRUE(cliExits("identify servo --logs " + kSlope32 + " --models M9", 2, {"--models"}));
  EXPECT_TRUE(cliExits("identify servo --method sim", 2, {"--logs"}));
}

TEST(IdentifyCli, HelpAndBadInput) {
  EXPECT_EQ(cli("identify --help").code, 0);
  EXPECT_EQ(cli("identify servo --help").code, 0);
  EXPECT_EQ(cli("identify").code, 2);
  EXPECT_TRUE(cliExits("identify servo --log /nonexistent.csv", 2, {"/nonexistent.csv"}));
  EXPECT_TRUE(cliExits("identify servo --log " + kSlope32 + " --inertia -1", 2, {"--inertia"}));
}

TEST(IdentifyCli, RunPlaysAnMtnPage) {
  ASSERT_TRUE(
      cliExits("run --robot bioloid --motion " + kMtn + "sitPose.mtn --page lean-to-stand-quickStart --duration 1.5", 0,
               {"sim_time_s=1.500"}));
}

TEST(IdentifyCli, MtnErrorsExitTwoWithFileAndLine) {
  EXPECT_TRUE(cliExits("run --robot bioloid --motion " + kMtn + "sitPose.mtn --page nope --duration 0.1", 2,
                       {"page: no page named 'nope'", "lean-to-stand-quickStart"}));
  EXPECT_TRUE(cliExits("run --robot bioloid --motion " + kMtn + "sitPose.mtn --duration 0.1", 2, {"--page"}));
  const auto bad = std::filesystem::temp_directory_path() / "gapsim_identify_cli_bad.mtn";
  std::ofstream(bad) << "type=motion\npage_begin\nname=a\nplay_param=0 0 1 1.0 32\nstep=512 512\npage_end\n";
  EXPECT_TRUE(cliExits("run --robot bioloid --motion " + bad.string() + " --page a --duration 0.1", 2,
                       {bad.string() + ":5: step:"}));
  EXPECT_TRUE(cliExits("run --robot bioloid --motion " + kMtn + "../pendulum.urdf --page a", 2));
}
