// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli walk / run --walk / experiment as a user runs them: exit codes and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/app/cli_runner.h"

namespace {

using gapsim::test::cli;
using gapsim::test::contains;
using Result = gapsim::test::CliResult;

std::string tmp(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

TEST(WalkCli, Help) {
  for (const char* sub : {"walk", "experiment", "experiment motoflex-walk"}) {
    Result r = cli(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "Usage")) << r.out;
  }
  EXPECT_TRUE(contains(cli("run --help").out, "--walk"));
}

TEST(WalkCli, WritesAMotionThatRunPlays) {
  const std::string out = tmp("gapsim_walk_cli.csv");
  Result r = cli("walk --speed 0.1 --step-duration 1.0 --steps 4 --force --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "walk: 4 steps of 0.500 s")) << r.out;
  std::ifstream in(out);
  std::string controller, header;
  std::getline(in, controller);
  EXPECT_EQ(controller, "# controller: balance:roll_rate=0.1,pitch_rate=0.05");  // what the walk plays with
  std::getline(in, header);
  EXPECT_EQ(header.rfind("time_s,LHipYawPitch,LHipRoll,LHipPitch,LKneePitch,LAnklePitch,LAnkleRoll,RHipRoll", 0), 0u)
      << header;
  r = cli("run --motion " + out + " --plain --duration 0.3 --quiet");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "fell=no")) << r.out;
  std::filesystem::remove(out);
  r = cli("walk --kick --force --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "kick:")) << r.out;
  std::filesystem::remove(out);
}

TEST(WalkCli, RunWalkGeneratesAndPlays) {
  Result r = cli("run --walk speed=0.1,step_duration=1.0,steps=2 --plain --duration 0.3 --quiet");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "sim_time_s=0.300")) << r.out;
}

// Acceptance: an infeasible request gives exit code 2 and a message that says which limit.
TEST(WalkCli, InfeasibleRequestsExit2AndNameTheLimit) {
  Result r = cli("walk --speed 0.5 --step-duration 1.0 --out " + tmp("gapsim_never.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "out of reach")) << r.out;
  EXPECT_TRUE(contains(r.out, "more than the 0.2029 m of thigh + tibia")) << r.out;
  EXPECT_FALSE(std::filesystem::exists(tmp("gapsim_never.csv")));

  r = cli("walk --speed 0.2 --com-height 0.2 --out " + tmp("gapsim_never.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "LHipRoll: -0.3812 rad is beyond the joint limit -0.3794 rad")) << r.out;

  r = cli("run --walk speed=0.2,com_height=0.2 --plain");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "LHipRoll")) << r.out;

  r = cli("walk --speed 0.05 --lateral-speed 0.1 --out " + tmp("gapsim_never.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "lateral_speed: the feet would collide")) << r.out;

  r = cli("walk --step-duration 0.1 --out " + tmp("gapsim_never.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "step_duration: 0.1 is out of range")) << r.out;
}

TEST(WalkCli, BadWalkKeysAndValuesExit2) {
  Result r = cli("run --walk sped=0.2 --plain");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "unknown walk parameter 'sped'")) << r.out;
  r = cli("run --walk speed=fast --plain");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "speed: not a number: 'fast'")) << r.out;
  r = cli("run --walk speed=0.1 --motion " + std::string(GAPSIM_ROBOTS_DIR) + "/nao/motions/stand.csv");
  EXPECT_EQ(r.code, 2) << r.out;
  r = cli("walk --steps 4 --duration 3 --out " + tmp("gapsim_never.csv"));
  EXPECT_EQ(r.code, 2) << r.out;
  r = cli("experiment motoflex-walk --pipelines bogus --out-dir " + tmp("gapsim_never_dir"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "unknown pipeline 'bogus'")) << r.out;
  std::filesystem::remove_all(tmp("gapsim_never_dir"));
}

}  // namespace
