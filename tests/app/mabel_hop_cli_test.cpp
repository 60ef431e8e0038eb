// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli run/bench --controller hop (MABEL's hopping controller, docs/mabel.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

TEST(MabelHopCli, RunLogsPhaseAndProbesAndPrintsHops) {
  const auto out = (std::filesystem::temp_directory_path() / "gapsim_mabel_hop_cli_test.csv").string();
  ASSERT_TRUE(
      cliExits("run --robot mabel --controller hop --duration 0.6 --probe 'mabel/*/stretch*' --force --out " + out, 0,
               {"hops=", "period_s="}));
  const std::string csv = slurp(out);
  EXPECT_TRUE(contains(csv, "hop/phase")) << csv.substr(0, 300);
  EXPECT_TRUE(contains(csv, "mabel/left/stretch_mLS_rad"));
  std::filesystem::remove(out);
}

TEST(MabelHopCli, BadOptionsExitTwo) {
  EXPECT_TRUE(cliExits("run --robot mabel --controller hop --duration 0.1 --hop K_Tor=abc", 2, {"K_Tor"}));
  EXPECT_TRUE(cliExits("run --robot nao --controller hop --duration 0.1", 2, {"boom_pitch"}));
  EXPECT_TRUE(cliExits("run --robot nao --controller hop --duration 0.1 --hop drop_m=0", 2, {"hip_L"}));
}

TEST(MabelHopCli, BenchPrintsTheRealTimeFactor) {
  ASSERT_TRUE(cliExits("bench --robot mabel --controller hop --duration 0.3 --reps 1", 0, {"mabel hopping", "rtf"}));
}

}  // namespace
