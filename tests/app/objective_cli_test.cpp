// SPDX-License-Identifier: BSD-3-Clause
// `gapsim-cli calibrate --objective resync|gait_w1`: an unknown objective and out-of-range
// horizons or settle times are refused with exit 2, a message naming the option and the value,
// and no results directory; a resumed run keeps the objective and its horizon.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

const std::string kEx = std::string(GAPSIM_SOURCE_DIR) + "/calib/examples/nao_twin";

std::string outDir(const std::string& name) { return (gapsim::test::testDir("gapsim_objective_cli") / name).string(); }

std::string calibrate(const std::string& extra, const std::string& out) {
  return "calibrate --robot nao --space " + kEx + "/space.csv --scenarios " + kEx + "/scenarios.csv " + extra +
         " --out " + out;
}

TEST(ObjectiveCli, AnUnknownObjectiveIsRefusedWithTheChoices) {
  const std::string out = outDir("unknown");
  EXPECT_TRUE(cliExits(calibrate("--objective w1", out), 2, {"--objective: w1 not in {F,E_cali,sum,resync,gait_w1}"}));
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(ObjectiveCli, AHorizonOutsideOneLogPeriodToAnHourIsRefusedWithItsValue) {
  for (const auto& [value, shown] : std::vector<std::pair<std::string, std::string>>{
           {"0", "not 0"}, {"nan", "not nan"}, {"1e308", "not 1e+308"}, {"-1", "not -1"}, {"0.001", "not 0.001"}}) {
    const std::string out = outDir("horizon");
    const auto r = cli(calibrate("--objective resync --resync-horizon " + value, out));
    EXPECT_EQ(r.code, 2) << value << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "error: --resync-horizon: must be a finite time in [0.01, 3600] s")) << r.out;
    EXPECT_TRUE(contains(r.out, shown)) << value << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists(out)) << value;
  }
  EXPECT_TRUE(cliExits(calibrate("--objective gait_w1 --w1-settle -1", outDir("settle")), 2,
                       {"error: --w1-settle: must be a finite time in [0, 3600] s, not -1"}));
}

TEST(ObjectiveCli, AResumedRunKeepsTheObjectiveAndItsHorizon) {
  // One generation of two children on the twin's squats, then one more by --resume: the
  // checkpoint's inputs name the objective and the horizon, the resumed run prints them.
  const std::string out = outDir("resume");
  std::filesystem::remove_all(out);
  ASSERT_TRUE(cliExits(calibrate("--objective resync --resync-horizon 0.5 --lambda 2 --generations 1 --jobs 1", out), 0,
                       {"objective resync (H = 0.5 s)"}));
  const std::string inputs = gapsim::test::slurp(out + "/checkpoint.json");
  EXPECT_TRUE(contains(inputs, "\"resync_horizon_s\": 0.5")) << inputs.substr(0, 2000);
  ASSERT_TRUE(cliExits("calibrate --resume " + out + " --generations 2 --jobs 1", 0, {"objective resync (H = 0.5 s)"}));
}

}  // namespace
