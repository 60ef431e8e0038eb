// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli bench --calibration as a user runs it: the figures are printed (never asserted:
// speed is noisy here), the results of 1 and 2 workers are compared bit for bit, bad counts are
// refused with exit code 2.
#include <gtest/gtest.h>

#include <string>

#include "tests/app/cli_runner.h"

namespace {

using gapsim::test::cli;
using gapsim::test::contains;

TEST(BenchCalibrationCli, PrintsRatesEfficiencyLoadAndChecksTheResultsAgree) {
  // The shipped example's training scenarios (2.5 simulated s per evaluation): 2 evaluations per
  // worker count in one round, about 4 CPU seconds.
  const auto r = cli("bench --calibration --evals 2 --rounds 1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "calib/examples/nao_twin/scenarios.csv")) << r.out;
  EXPECT_TRUE(contains(r.out, "load_1min")) << r.out;
  EXPECT_TRUE(contains(r.out, "scaling efficiency")) << r.out;
  EXPECT_TRUE(contains(r.out, "results with 1 and 2 workers: bit-identical")) << r.out;
}

TEST(BenchCalibrationCli, RefusesBadCounts) {
  const auto r = cli("bench --calibration --evals 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--evals")) << r.out;
  EXPECT_EQ(cli("bench --calibration --rounds 0").code, 2);
}

}  // namespace
