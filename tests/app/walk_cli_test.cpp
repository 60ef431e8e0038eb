// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli walk / run --walk / experiment as a user runs them: exit codes and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

std::string tmp(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

TEST(WalkCli, Help) {
  for (const char* sub : {"walk", "experiment", "experiment motoflex-walk"}) {
    Result r = cli(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "Usage")) << r.out;
  }
  EXPECT_TRUE(contains(cli("run --help").out, "--walk"));
}

// Long steps in a slow cycle ask the knees for more than the type B drive's no-load speed
// (8.5 rad/s): by default the generator lengthens the swing until they do not and says so; planned
// as given (fit_drives=0) it notes the joints; a slow walk gets neither.
TEST(WalkCli, NotesJointsWhoseTargetsOutrunTheirDrives) {
  const std::string out = tmp("gapsim_walk_cli_fast.csv");
  struct Case {
    std::string args;
    std::vector<std::string> said, not_said;
  };
  const std::string fast = "walk --speed 0.25 --step-duration 1.0 --steps 12 ";
  const Case cases[] = {
      {fast, {"walk: double support 0.05 instead of 0.20 of each step"}, {"note:"}},
      {fast + "--params fit_drives=0 ",
       {"walk: note: the targets of", "LKneePitch: 11.8 rad/s", "no-load speed 8.5 rad/s"},
       {"instead of"}},
      {"walk --speed 0.1 --step-duration 1.5 --steps 12 ", {}, {"note:", "instead of"}},
  };
  for (const Case& c : cases) {
    const Result r = cli(c.args + "--force --out " + out);
    EXPECT_EQ(r.code, 0) << c.args << "\n" << r.out;
    for (const std::string& s : c.said)
      EXPECT_TRUE(contains(r.out, s)) << c.args << " should say " << s << "\n" << r.out;
    for (const std::string& s : c.not_said) EXPECT_FALSE(contains(r.out, s)) << c.args << "\n" << r.out;
  }
  std::filesystem::remove(out);
}

TEST(WalkCli, WritesAMotionThatRunPlays) {
  const std::string out = tmp("gapsim_walk_cli.csv");
  ASSERT_TRUE(
      cliExits("walk --speed 0.1 --step-duration 1.0 --steps 4 --force --out " + out, 0, {"walk: 4 steps of 0.500 s"}));
  std::ifstream in(out);
  std::string controller, header;
  std::getline(in, controller);
  EXPECT_EQ(controller, "# controller: balance:roll_rate=0.1,pitch_rate=0.05,heading=0.5");  // what the walk plays with
  std::getline(in, header);
  EXPECT_EQ(header.rfind("time_s,LHipYawPitch,LHipRoll,LHipPitch,LKneePitch,LAnklePitch,LAnkleRoll,RHipRoll", 0), 0u)
      << header;
  EXPECT_TRUE(cliExits("run --motion " + out + " --plain --duration 0.3 --quiet", 0, {"fell=no"}));
  std::filesystem::remove(out);
  EXPECT_TRUE(cliExits("walk --kick --force --out " + out, 0, {"kick:"}));
  std::filesystem::remove(out);
}

TEST(WalkCli, RunWalkGeneratesAndPlays) {
  EXPECT_TRUE(cliExits("run --walk speed=0.1,step_duration=1.0,steps=2 --plain --duration 0.3 --quiet", 0,
                       {"sim_time_s=0.300"}));
  // run --walk plans with the same fit to the drives and says so (not with --quiet).
  EXPECT_TRUE(cliExits("run --walk speed=0.25,step_duration=1.0,steps=3 --plain --duration 0.3", 0,
                       {"--walk: double support 0.05 instead of 0.20"}));
}

// Acceptance: an infeasible request gives exit code 2 and a message that says which limit.
TEST(WalkCli, InfeasibleRequestsExit2AndNameTheLimit) {
  EXPECT_TRUE(cliExits("walk --speed 0.5 --step-duration 1.0 --out " + tmp("gapsim_never.csv"), 2,
                       {"out of reach", "more than the 0.2029 m of thigh + tibia"}));
  EXPECT_FALSE(std::filesystem::exists(tmp("gapsim_never.csv")));

  EXPECT_TRUE(cliExits("walk --speed 0.2 --com-height 0.2 --out " + tmp("gapsim_never.csv"), 2,
                       {"LHipRoll: -0.3812 rad is beyond the joint limit -0.3794 rad"}));

  EXPECT_TRUE(cliExits("run --walk speed=0.2,com_height=0.2 --plain", 2, {"LHipRoll"}));

  EXPECT_TRUE(cliExits("walk --speed 0.05 --lateral-speed 0.1 --out " + tmp("gapsim_never.csv"), 2,
                       {"lateral_speed: the feet would collide"}));

  EXPECT_TRUE(
      cliExits("walk --step-duration 0.1 --out " + tmp("gapsim_never.csv"), 2, {"step_duration: 0.1 is out of range"}));
}

TEST(WalkCli, BadWalkKeysAndValuesExit2) {
  EXPECT_TRUE(cliExits("run --walk sped=0.2 --plain", 2, {"unknown walk parameter 'sped'"}));
  EXPECT_TRUE(cliExits("run --walk speed=fast --plain", 2, {"speed: not a number: 'fast'"}));
  EXPECT_TRUE(
      cliExits("run --walk speed=0.1 --motion " + std::string(GAPSIM_ROBOTS_DIR) + "/nao/motions/stand.csv", 2));
  EXPECT_TRUE(cliExits("walk --steps 4 --duration 3 --out " + tmp("gapsim_never.csv"), 2));
  EXPECT_TRUE(cliExits("experiment motoflex-walk --pipelines bogus --out-dir " + tmp("gapsim_never_dir"), 2,
                       {"unknown pipeline 'bogus'"}));
  std::filesystem::remove_all(tmp("gapsim_never_dir"));
}

}  // namespace
