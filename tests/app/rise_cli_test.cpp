// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli optimize-controller and rise (BIOLOID rising controllers, paper 001): the same run
// with 1 and 2 workers is bit-identical, a run killed with SIGKILL and resumed equals the
// uninterrupted one, a malformed controller file is exit 2 naming file and line.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/app/cli_runner.h"
#include "tests/kill_when.h"

namespace gapsim::test {
namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) { return test::freshProcessDir("gapsim_rise_cli_", name); }

/// Small budget: the lean task, one keyframe (only the duration of the move to the standing
/// pose is free), population 4.
const std::string kSmall = "optimize-controller --robot bioloid --task lean --keyframes 1 --population 4 --seed 5 ";

TEST(OptimizeControllerCli, OneAndTwoWorkersGiveBitIdenticalResults) {
  const std::string d = tempDir("workers");
  ASSERT_TRUE(cliExits(kSmall + "--generations 2 --workers 1 --out " + d + "/w1.csv", 0,
                       {"gen 2/2", "best controller: V_ctrl"}));
  ASSERT_TRUE(cliExits(kSmall + "--generations 2 --workers 2 --out " + d + "/w2.csv", 0, {"processes (2 workers)"}));
  EXPECT_EQ(slurp(d + "/w1.csv.run/history.csv"), slurp(d + "/w2.csv.run/history.csv"));
  const std::string c1 = slurp(d + "/w1.csv"), c2 = slurp(d + "/w2.csv");
  // The files differ only in the comment naming nothing worker-specific: they are equal.
  EXPECT_FALSE(c1.empty());
  EXPECT_EQ(c1, c2);
  // The controller plays back with the same score.
  ASSERT_TRUE(
      cliExits("rise --task lean --controller " + d + "/w1.csv --out " + d + "/rise.csv", 0, {"result: V_ctrl"}));
  EXPECT_TRUE(fs::exists(d + "/rise.csv"));
  fs::remove_all(d);
}

TEST(OptimizeControllerCli, AKilledRunResumedEqualsTheUninterruptedRun) {
  const std::string d = tempDir("resume");
  const std::string args = std::string(GAPSIM_CLI_PATH) + " " + kSmall + "--generations 4 --workers 2 --out ";
  ASSERT_EQ(std::system((args + d + "/full.csv >/dev/null 2>&1").c_str()), 0);
  // Start the same run, SIGKILL it once generation 2 is checkpointed (during generation 3), resume.
  const KilledRun k = killWhen(
      args + d + "/killed.csv",
      [&] { return slurp(d + "/killed.csv.run/history.csv").find("\n2,") != std::string::npos; },
      std::chrono::milliseconds(10), 6000);
  ASSERT_TRUE(k.killed);
  ASSERT_FALSE(fs::exists(d + "/killed.csv")) << "the run finished before it could be killed";
  ASSERT_TRUE(
      cliExits("optimize-controller --resume " + d + "/killed.csv.run --workers 2", 0, {"resumed at generation 2"}));
  EXPECT_EQ(slurp(d + "/full.csv.run/history.csv"), slurp(d + "/killed.csv.run/history.csv"));
  std::string full = slurp(d + "/full.csv"), again = slurp(d + "/killed.csv");
  ASSERT_FALSE(full.empty());
  EXPECT_EQ(full, again);
  fs::remove_all(d);
}

TEST(RiseCli, MalformedControllerIsExit2WithFileAndLine) {
  const std::string d = tempDir("bad");
  const std::string p = d + "/bad.csv";
  std::ofstream(p) << "# comment\nduration_s,thigh_rad,shin_rad\n0.5,0.1,x\n";
  EXPECT_TRUE(cliExits("rise --task sit --controller " + p, 2, {p + ":3: shin_rad"}));
  EXPECT_TRUE(cliExits("rise --task crawl --controller " + p, 2, {"lean, sit, kneel"}));
  fs::remove_all(d);
}

}  // namespace
}  // namespace gapsim::test
