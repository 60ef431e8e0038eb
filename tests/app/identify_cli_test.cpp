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

using gapsim::test::cli;
using gapsim::test::contains;
using Result = gapsim::test::CliResult;

const std::string kSlope32 = std::string(GAPSIM_SOURCE_DIR) + "/tests/calib/data/ankle_r_foot_slope32.csv";
const std::string kMtn = std::string(GAPSIM_SOURCE_DIR) + "/tests/sim/data/mtn/";

}  // namespace

TEST(IdentifyCli, ServoOnTheRealLog) {
  const auto dir = std::filesystem::temp_directory_path() / "gapsim_identify_cli_test";
  std::filesystem::remove_all(dir);
  Result r = cli("identify servo --log " + kSlope32 + " --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "kp = ")) << r.out;
  EXPECT_TRUE(contains(r.out, "95% confidence interval")) << r.out;
  EXPECT_TRUE(contains(r.out, "Student-t")) << r.out;
  EXPECT_TRUE(contains(r.out, "the paper does not give I")) << r.out;
  EXPECT_TRUE(contains(r.out, "rms(q_sim - q)")) << r.out;
  EXPECT_TRUE(contains(r.out, "replay_rms_rad=")) << r.out;
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
  Result r = cli("identify servo --logs " + kSlope32 + " --models M1 --evals 300 --no-polish --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "model M1 (Coulomb-viscous)")) << r.out;
  EXPECT_TRUE(contains(r.out, "held-out RMS (rad)")) << r.out;
  EXPECT_TRUE(contains(r.out, "best_model=M1")) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "servo_models_heldout.csv"));
  // The paper's method is labelled so.
  r = cli("identify servo --method paper --log " + kSlope32 + " --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "the paper's method")) << r.out;
  // Bad input names the option.
  r = cli("identify servo --logs " + kSlope32 + " --models M9");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--models")) << r.out;
  r = cli("identify servo --method sim");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--logs")) << r.out;
}

TEST(IdentifyCli, HelpAndBadInput) {
  EXPECT_EQ(cli("identify --help").code, 0);
  EXPECT_EQ(cli("identify servo --help").code, 0);
  EXPECT_EQ(cli("identify").code, 2);
  Result r = cli("identify servo --log /nonexistent.csv");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "/nonexistent.csv")) << r.out;
  r = cli("identify servo --log " + kSlope32 + " --inertia -1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--inertia")) << r.out;
}

TEST(IdentifyCli, RunPlaysAnMtnPage) {
  Result r = cli("run --robot bioloid --motion " + kMtn + "sitPose.mtn --page lean-to-stand-quickStart --duration 1.5");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "sim_time_s=1.500")) << r.out;
}

TEST(IdentifyCli, MtnErrorsExitTwoWithFileAndLine) {
  Result r = cli("run --robot bioloid --motion " + kMtn + "sitPose.mtn --page nope --duration 0.1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "page: no page named 'nope'")) << r.out;
  EXPECT_TRUE(contains(r.out, "lean-to-stand-quickStart")) << r.out;
  r = cli("run --robot bioloid --motion " + kMtn + "sitPose.mtn --duration 0.1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--page")) << r.out;
  const auto bad = std::filesystem::temp_directory_path() / "gapsim_identify_cli_bad.mtn";
  std::ofstream(bad) << "type=motion\npage_begin\nname=a\nplay_param=0 0 1 1.0 32\nstep=512 512\npage_end\n";
  r = cli("run --robot bioloid --motion " + bad.string() + " --page a --duration 0.1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, bad.string() + ":5: step:")) << r.out;
  r = cli("run --robot bioloid --motion " + kMtn + "../pendulum.urdf --page a");
  EXPECT_EQ(r.code, 2) << r.out;
}
