// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli loop (the BIOLOID sim-to-reality loop, docs/bioloid.md "The loop") on a tiny budget:
// one iteration is deterministic (same seed -> identical files, with one or two worker
// processes), a run with two workers killed with SIGKILL and resumed ends with the same files as
// an uninterrupted serial one, reality = a directory without the recording exits 4 telling
// the user what to record and how to resume (and resumes to the twin's result once the
// recording is there), a bad twin parameter file or option is exit 2 naming file, line and field,
// --robust-models scores a controller by the worst of the gain-scaled models.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/app/cli_runner.h"
#include "tests/kill_when.h"

namespace gapsim::test {
namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) { return test::freshProcessDir("gapsim_loop_cli_", name); }

/// One task (lean), the direct 0.3 s move to standing as the start controller (it fails: the
/// robot stays on the wall), CMA-ES populations of 2, one generation each.
std::string tiny() {
  return std::string("loop --task lean --reality twin --iterations 1 --init-dir ") + GAPSIM_TEST_DATA_DIR +
         "/loop_init --generations 1 --population 2 --cal-generations 2 --cal-population 2 --seed 3 ";
}

/// The files that make a loop's result (the CMA-ES directories hold run-specific paths).
const char* kResultFiles[] = {"loop.csv",
                              "iter1/lean.csv",
                              "iter1/lean_command.csv",
                              "iter1/lean_recording.csv",
                              "iter1/calibrated.params",
                              "iter1/calibration.csv"};

void expectSameResult(const std::string& a, const std::string& b) {
  for (const char* f : kResultFiles) {
    const std::string x = slurp(a + "/" + f);
    EXPECT_FALSE(x.empty()) << a << "/" << f;
    EXPECT_EQ(x, slurp(b + "/" + f)) << f;
  }
}

TEST(LoopCli, OneIterationIsDeterministicResumesAfterAKillAndWaitsForARealRecording) {
  const std::string d = tempDir("det");
  const CliResult one = cli(tiny() + "--jobs 1 --out " + d + "/a");
  // The direct move fails on the twin, so the loop ends with the task still failing: exit 1.
  ASSERT_EQ(one.code, 1) << one.out;
  EXPECT_TRUE(contains(one.out, "iteration 1 lean : sim V_ctrl")) << one.out;
  EXPECT_TRUE(contains(one.out, "FAIL | E_cali")) << one.out;
  EXPECT_TRUE(contains(one.out, "still failing on reality: lean")) << one.out;
  // The calibration starts from the shipped model and never returns worse (E after <= before).
  const std::string cal = slurp(d + "/a/iter1/calibration.csv");
  double before = 0, after = 0;
  ASSERT_EQ(std::sscanf(cal.c_str() + cal.find('\n') + 1, "%lf,%lf", &before, &after), 2) << cal;
  EXPECT_LE(after, before);
  EXPECT_GT(before, 0.0);
  // Resuming a finished loop reads every step back and ends the same way.
  const std::string table = slurp(d + "/a/loop.csv");
  EXPECT_TRUE(cliExits("loop --resume " + d + "/a --jobs 1", 1, {"E_cali"}));
  EXPECT_EQ(slurp(d + "/a/loop.csv"), table);

  // Same seed, two worker processes, killed once the twin's recording is written (during the
  // calibration), then resumed: the same files as the uninterrupted serial run.
  const std::string args = std::string(GAPSIM_CLI_PATH) + " " + tiny() + "--jobs 2 --out " + d + "/k";
  const KilledRun k = killWhen(
      args, [&] { return fs::exists(d + "/k/iter1/lean_recording.csv"); }, std::chrono::milliseconds(5), 12000);
  ASSERT_TRUE(k.killed);
  ASSERT_FALSE(fs::exists(d + "/k/loop.csv")) << "the loop finished before it could be killed";
  const CliResult resumed = cli("loop --resume " + d + "/k --jobs 2");
  ASSERT_EQ(resumed.code, 1) << resumed.out;
  expectSameResult(d + "/a", d + "/k");

  // Reality = a directory: the loop hands over the commanded motion and waits for the recording.
  const std::string real = d + "/robot";
  fs::create_directories(real);
  std::string args_dir = tiny();
  args_dir.replace(args_dir.find("--reality twin"), 14, "--reality " + real);
  const CliResult wait = cli(args_dir + "--jobs 1 --out " + d + "/r");
  EXPECT_TRUE(exitedWith(wait, 4,
                         {"waiting for reality", real + "/iter1_lean_command.csv",
                          "record " + real + "/iter1_lean_recording.csv", "gapsim-cli loop --resume " + d + "/r"}));
  // The commanded motion handed over is the one the twin loop executed.
  EXPECT_EQ(slurp(real + "/iter1_lean_command.csv"), slurp(d + "/a/iter1/lean_command.csv"));
  // Resumed without the recording: still waiting, nothing lost.
  EXPECT_EQ(cli("loop --resume " + d + "/r --jobs 1").code, 4);
  // The "robot" records what the twin recorded: the loop continues to the twin loop's result.
  fs::copy_file(d + "/a/iter1/lean_recording.csv", real + "/iter1_lean_recording.csv");
  const CliResult done = cli("loop --resume " + d + "/r --jobs 1");
  EXPECT_EQ(done.code, 1) << done.out;
  expectSameResult(d + "/a", d + "/r");
  fs::remove_all(d);
}

TEST(LoopCli, BadTwinParameterFileIsExit2NamingFileLineAndField) {
  const std::string d = tempDir("bad");
  {
    std::ofstream f(d + "/twin.params");
    f << "name,value\nlink/torso/mass,0.6\nservos/servo/kq,5\n";
  }
  EXPECT_TRUE(cliExits(tiny() + "--twin-params " + d + "/twin.params --out " + d + "/out", 2,
                       {"twin.params:3", "servos/servo/kq"}));
  EXPECT_FALSE(fs::exists(d + "/out/loop.json")) << "nothing written for bad input";
  // A resume of a directory that is no loop is exit 2 as well.
  EXPECT_EQ(cli("loop --resume " + d).code, 2);
  // Out-of-range options name the option.
  for (const char* bad :
       {"--cal-joint-weight -1", "--robust-models 0", "--robust-gain-spread 1.5", "--cal-settle -1"}) {
    const CliResult o = cli(tiny() + bad + " --out " + d + "/out");
    EXPECT_EQ(o.code, 2) << bad << "\n" << o.out;
    EXPECT_TRUE(contains(o.out, std::string(bad).substr(0, std::string(bad).find(' ')))) << o.out;
  }
  fs::remove_all(d);
}

TEST(LoopCli, RobustOptimisationTakesTheWorstOfTheGainScaledModels) {
  // --robust-models 3: the controller is scored on the model and on it with the servo gains at
  // 0.7 and 1.3 times (in worker processes; the evaluation is a pure function of the candidate,
  // so the jobs-1/jobs-2 identity of the test above carries over).
  const std::string d = tempDir("robust");
  const std::string args = tiny() + "--robust-models 3 --robust-gain-spread 0.3 --cal-joint-weight 10 ";
  const CliResult one = cli(args + "--jobs 2 --out " + d + "/a");
  ASSERT_TRUE(exitedWith(
      one, 1, {"worst of 3 model(s)", "encoder weight 10", "iteration 1: calibrated servos/servo/stall_torque"}));
  // The start controller's score (generation 0 of the CMA-ES history: -V_ctrl) is the worst of
  // the three models, so it is above the model-alone score (the gains change V_ctrl).
  const CliResult single = cli(tiny() + "--cal-joint-weight 10 --jobs 1 --out " + d + "/c");
  ASSERT_EQ(single.code, 1) << single.out;
  auto initial = [](const std::string& history) {
    const std::string h = slurp(history);
    double g = -1, e = -1, best = NAN;
    EXPECT_EQ(std::sscanf(h.c_str() + h.find('\n') + 1, "%lf,%lf,%lf", &g, &e, &best), 3) << h;
    return best;
  };
  const double robust0 = initial(d + "/a/iter1/lean.run/history.csv"),
               single0 = initial(d + "/c/iter1/lean.run/history.csv");
  EXPECT_GT(robust0, single0);
  fs::remove_all(d);
}

}  // namespace
}  // namespace gapsim::test
