// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli bench --calibration as a user runs it: the figures are printed (never asserted:
// speed is noisy here), the results of 1 and 2 workers are compared bit for bit, bad counts are
// refused with exit code 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

TEST(BenchCalibrationCli, PrintsRatesEfficiencyLoadAndChecksTheResultsAgree) {
  // The shipped example's training scenarios (2.5 simulated s per evaluation): 2 evaluations per
  // worker count in one round, about 4 CPU seconds.
  const auto r = cli("bench --calibration --evals 2 --rounds 1");
  ASSERT_TRUE(exitedWith(r, 0,
                         {"calib/examples/nao_twin/scenarios.csv", "load_1min", "scaling efficiency",
                          "results with 1 and 2 workers: bit-identical"}));
}

TEST(BenchCalibrationCli, RefusesBadCounts) {
  EXPECT_TRUE(cliExits("bench --calibration --evals 1", 2, {"--evals"}));
  EXPECT_EQ(cli("bench --calibration --rounds 0").code, 2);
}

}  // namespace
