// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli optimize-controller and rise (BIOLOID rising controllers, paper 001): the same run
// with 1 and 2 workers is bit-identical, a run killed with SIGKILL and resumed equals the
// uninterrupted one, a malformed controller file is exit 2 naming file and line.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/app/cli_runner.h"

namespace gapsim::test {
namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) {
  const std::string d = "/tmp/gapsim_rise_cli_" + std::to_string(getpid()) + "_" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// Small budget: the lean task, one keyframe (only the duration of the move to the standing
/// pose is free), population 4.
const std::string kSmall = "optimize-controller --robot bioloid --task lean --keyframes 1 --population 4 --seed 5 ";

TEST(OptimizeControllerCli, OneAndTwoWorkersGiveBitIdenticalResults) {
  const std::string d = tempDir("workers");
  const CliResult one = cli(kSmall + "--generations 2 --workers 1 --out " + d + "/w1.csv");
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_TRUE(contains(one.out, "gen 2/2")) << one.out;
  EXPECT_TRUE(contains(one.out, "best controller: V_ctrl")) << one.out;
  const CliResult two = cli(kSmall + "--generations 2 --workers 2 --out " + d + "/w2.csv");
  ASSERT_EQ(two.code, 0) << two.out;
  EXPECT_TRUE(contains(two.out, "processes (2 workers)")) << two.out;
  EXPECT_EQ(slurp(d + "/w1.csv.run/history.csv"), slurp(d + "/w2.csv.run/history.csv"));
  const std::string c1 = slurp(d + "/w1.csv"), c2 = slurp(d + "/w2.csv");
  // The files differ only in the comment naming nothing worker-specific: they are equal.
  EXPECT_FALSE(c1.empty());
  EXPECT_EQ(c1, c2);
  // The controller plays back with the same score.
  const CliResult play = cli("rise --task lean --controller " + d + "/w1.csv --out " + d + "/rise.csv");
  ASSERT_EQ(play.code, 0) << play.out;
  EXPECT_TRUE(contains(play.out, "result: V_ctrl")) << play.out;
  EXPECT_TRUE(fs::exists(d + "/rise.csv"));
  fs::remove_all(d);
}

TEST(OptimizeControllerCli, AKilledRunResumedEqualsTheUninterruptedRun) {
  const std::string d = tempDir("resume");
  const std::string args = std::string(GAPSIM_CLI_PATH) + " " + kSmall + "--generations 4 --workers 2 --out ";
  ASSERT_EQ(std::system((args + d + "/full.csv >/dev/null 2>&1").c_str()), 0);
  // Start the same run, SIGKILL it once generation 2 is checkpointed (during generation 3), resume.
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", (args + d + "/killed.csv >/dev/null 2>&1").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  bool killed = false;
  for (int i = 0; i < 6000 && !killed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (slurp(d + "/killed.csv.run/history.csv").find("\n2,") != std::string::npos) {
      kill(-pid, SIGKILL);
      killed = true;
    }
  }
  int st = 0;
  waitpid(pid, &st, 0);
  ASSERT_TRUE(killed);
  ASSERT_FALSE(fs::exists(d + "/killed.csv")) << "the run finished before it could be killed";
  const CliResult resumed = cli("optimize-controller --resume " + d + "/killed.csv.run --workers 2");
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  EXPECT_TRUE(contains(resumed.out, "resumed at generation 2")) << resumed.out;
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
  const CliResult r = cli("rise --task sit --controller " + p);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, p + ":3: shin_rad")) << r.out;
  const CliResult t = cli("rise --task crawl --controller " + p);
  EXPECT_EQ(t.code, 2) << t.out;
  EXPECT_TRUE(contains(t.out, "lean, sit, kneel")) << t.out;
  fs::remove_all(d);
}

}  // namespace
}  // namespace gapsim::test
