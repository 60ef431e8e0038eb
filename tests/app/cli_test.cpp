// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli as a user runs it: exit codes (0 ok, 2 bad input with file/line/field, 3 divergence),
// summaries, byte-identical logs, --help everywhere.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

std::string data(const std::string& f) { return std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/" + f; }

using gapsim::test::slurp;

TEST(Cli, HelpOnEverySubcommand) {
  for (const char* sub : {"", "info", "run", "bench", "demo"}) {
    Result r = cli(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "Usage")) << r.out;
  }
}

TEST(Cli, InfoListsJointsAndMass) {
  Result r = cli("info nao");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "LKneePitch"));
  EXPECT_TRUE(contains(r.out, "coupled to LHipYawPitch"));
  EXPECT_TRUE(contains(r.out, "degrees of freedom (actuated): 25"));
  EXPECT_TRUE(contains(r.out, "total mass: 5.00"));
}

TEST(Cli, RunPrintsSummaryAndWritesLog) {
  const std::string log = ::testing::TempDir() + "/cli_run.csv";
  Result r = cli("run --robot nao --duration 1 --quiet --force --out " + log);
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* key : {"sim_time_s=1.000", "fell=no", "max_tilt_deg=", "distance_m=", "rtf="})
    EXPECT_TRUE(contains(r.out, key)) << key << "\n" << r.out;
  const std::string text = slurp(log);
  EXPECT_EQ(text.rfind("time_s,", 0), 0u);
  for (const char* col : {"LKneePitch/q_target_rad", "LKneePitch/q_rad", "LKneePitch/qd_rad_s", "LKneePitch/tau_Nm",
                          "torso/pitch_rad", "torso/roll_rad", "torso/tilt_rad", "com/z_m", "LFoot/contact"})
    EXPECT_TRUE(contains(text, col)) << col;
}

TEST(Cli, TwoIdenticalRunsGiveByteIdenticalLogs) {
  const std::string a = ::testing::TempDir() + "/det_a.csv", b = ::testing::TempDir() + "/det_b.csv";
  const std::string motion = std::string(GAPSIM_SOURCE_DIR) + "/robots/nao/motions/squat.csv";
  ASSERT_EQ(cli("run --robot nao --quiet --motion " + motion + " --duration 3 --seed 7 --force --out " + a).code, 0);
  ASSERT_EQ(cli("run --robot nao --quiet --motion " + motion + " --duration 3 --seed 7 --force --out " + b).code, 0);
  const std::string ta = slurp(a), tb = slurp(b);
  ASSERT_GT(ta.size(), 10000u);
  EXPECT_TRUE(ta == tb) << "logs differ";
}

/// Malformed robot files and motions: exit 2, naming the file, the line and the field.
TEST(Cli, MalformedInputsExit2NamingFileLineAndField) {
  struct Case {
    std::string command;
    std::vector<std::string> says;
  };
  const Case cases[] = {
      {"info " + data("broken.urdf"), {"broken.urdf:3", "malformed XML"}},
      {"run --duration 0.1 --robot " + data("nomass.urdf"), {"nomass.urdf:6: link 'arm'/inertial"}},
      {"run --robot nao --quiet --motion " + data("motion_unknown_joint.csv"),
       {"motion_unknown_joint.csv:1: LKneeYaw: unknown joint"}},
      {"run --robot nao --quiet --motion " + data("motion_nonnumeric.csv"),
       {"motion_nonnumeric.csv:4: HeadPitch", "abc"}},
      {"run --robot nao --quiet --motion " + data("motion_backwards.csv"), {"motion_backwards.csv:4: time_s"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.command);
    EXPECT_TRUE(cliExits(c.command, 2, c.says));
  }
}

TEST(Cli, UnknownRobotAndBadOptionExit2) {
  EXPECT_EQ(cli("info no_such_robot").code, 2);
  EXPECT_EQ(cli("run --robot nao --dt -1").code, 2);
  EXPECT_EQ(cli("run --robot nao --no-such-flag").code, 2);
}

TEST(Cli, AbsurdTimeStepExits3WithDivergenceMessage) {
  EXPECT_TRUE(cliExits("run --robot nao --plain --quiet --dt 0.1 --duration 20", 3, {"diverged at t=", "body '"}));
}

TEST(Cli, AbsurdTimeStepWithTheGearModelIsRejectedBeforeRunning) {
  // The gear's substep integration has a stability limit (omega dt_g < 2); validate() refuses a
  // setup beyond it with the numbers, before anything runs.
  EXPECT_TRUE(cliExits("run --robot nao --quiet --dt 0.1 --duration 20", 2, {"unstable substep"}));
}

TEST(Cli, SetParamsAndProbes) {
  const std::string log = ::testing::TempDir() + "/cli_probe.csv";
  Result r = cli(
      "run --robot nao --quiet --duration 0.2 --set legs/typeB/motor/B_v=0.04 --probe 'LKnee*' --force --out " + log);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string text = slurp(log);
  for (const char* col : {"LKneePitch/motor/current_A", "LKneePitch/gear/deflection_rad", "LKneePitch/pid/U_V"})
    EXPECT_TRUE(contains(text, col)) << col;
  EXPECT_FALSE(contains(text, "RKneePitch/motor/current_A"));
  Result bad = cli("run --robot nao --quiet --duration 0.2 --set legs/typeB/motor/B_vv=0.04");
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.out, "legs/typeB/motor/B_vv: unknown parameter")) << bad.out;
  Result listed = cli("params nao --filter 'legs/typeA/gear/*'");
  EXPECT_EQ(listed.code, 0);
  EXPECT_TRUE(contains(listed.out, "legs/typeA/gear/D_g")) << listed.out;
}

TEST(Cli, ThirdPartyUrdfStands) {
  EXPECT_TRUE(cliExits("run --duration 5 --robot " + data("thirdparty_arm_robot.urdf"), 0,
                       {"fell=no", "ignored 2 <transmission> elements"}));
}

}  // namespace
