// SPDX-License-Identifier: BSD-3-Clause
// The product's first story at the defaults: every shipped Nao walk and the kick, played with no
// flag (the controller the motion names, the robot file's solver), plain and full, stays up.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

const std::string kMotions = std::string(GAPSIM_ROBOTS_DIR) + "/nao/motions/";

class ShippedWalk : public ::testing::TestWithParam<const char*> {};

TEST_P(ShippedWalk, StaysUpAtTheDefaultsPlainAndFull) {
  for (const char* pipeline : {"", " --plain"}) {
    const auto r = cli("run --robot nao --motion " + kMotions + GetParam() + ".csv" + pipeline);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "controller: balance:")) << r.out;  // the motion names its controller
    EXPECT_TRUE(contains(r.out, "fell=no")) << GetParam() << pipeline << "\n" << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Nao, ShippedWalk,
                         ::testing::Values("walk_200mm_s_1s", "walk_100mm_s_1.5s", "walk_150mm_s_0.8s",
                                           "walk_50mm_s_2s", "kick"));

TEST(ShippedWalkController, OpenLoopPlaysWithoutIt) {
  // The paper plays its walks open loop: --open-loop must really drop the feedback (another run).
  const std::string m = "run --robot nao --duration 4 --motion " + kMotions + "walk_200mm_s_1s.csv";
  const auto closed = cli(m), open = cli(m + " --open-loop");
  ASSERT_EQ(closed.code, 0) << closed.out;
  ASSERT_EQ(open.code, 0) << open.out;
  EXPECT_FALSE(contains(open.out, "controller:")) << open.out;
  EXPECT_NE(closed.out.substr(closed.out.find("max_tilt")), open.out.substr(open.out.find("max_tilt")));
  const auto both = cli(m + " --open-loop --balance roll_rate=0.1");
  EXPECT_EQ(both.code, 2) << both.out;
}

TEST(ShippedWalkController, AnUnknownControllerIsLocated) {
  const auto path = std::filesystem::temp_directory_path() / "gapsim_bad_controller.csv";
  std::ofstream(path) << "# a comment\n# controller: wobble:gain=1\ntime_s,LKneePitch\n0,0.5\n1,0.6\n";
  EXPECT_TRUE(cliExits("run --robot nao --motion " + path.string(), 2,
                       {path.string() + ":2: controller: unknown controller 'wobble'"}));
  std::ofstream(path) << "# controller: balance:gain=1\ntime_s,LKneePitch\n0,0.5\n1,0.6\n";
  EXPECT_TRUE(cliExits("run --robot nao --motion " + path.string(), 2, {":1: controller:", "gain"}));
}

}  // namespace
