// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli run/bench --controller hop (MABEL's hopping controller, docs/mabel.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/app/cli_runner.h"

namespace {

using gapsim::test::cli;
using gapsim::test::contains;
using gapsim::test::slurp;

TEST(MabelHopCli, RunLogsPhaseAndProbesAndPrintsHops) {
  const auto out = (std::filesystem::temp_directory_path() / "gapsim_mabel_hop_cli_test.csv").string();
  auto r = cli("run --robot mabel --controller hop --duration 0.6 --probe 'mabel/*/stretch*' --force --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "hops=")) << r.out;
  EXPECT_TRUE(contains(r.out, "period_s=")) << r.out;
  const std::string csv = slurp(out);
  EXPECT_TRUE(contains(csv, "hop/phase")) << csv.substr(0, 300);
  EXPECT_TRUE(contains(csv, "mabel/left/stretch_mLS_rad"));
  std::filesystem::remove(out);
}

TEST(MabelHopCli, BadOptionsExitTwo) {
  auto r = cli("run --robot mabel --controller hop --duration 0.1 --hop K_Tor=abc");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "K_Tor")) << r.out;
  r = cli("run --robot nao --controller hop --duration 0.1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "boom_pitch")) << r.out;
  r = cli("run --robot nao --controller hop --duration 0.1 --hop drop_m=0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "hip_L")) << r.out;
}

TEST(MabelHopCli, BenchPrintsTheRealTimeFactor) {
  auto r = cli("bench --robot mabel --controller hop --duration 0.3 --reps 1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "mabel hopping")) << r.out;
  EXPECT_TRUE(contains(r.out, "rtf")) << r.out;
}

}  // namespace
