// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli excite leg and identify leg-friction|leg-bias (MABEL paper 003, Sec. V, eqs. 19-20)
// as a user runs them: a synthetic stand experiment with Table V's values fitted back, the
// measured-vs-simulated CSV, and bad input exiting 2 with file, line and field.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/csv_table.h"
#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

std::filesystem::path testDir() { return gapsim::test::testDir("gapsim_identify_leg_cli_test"); }

// A short chirp (0.5-20 Hz, 8 steps, 3 periods: 14 s of experiment).
const std::string kShort = " --f-end 20 --steps 8 --periods 3 --amplitude 0.03 --amplitude-end 0.3";

}  // namespace

TEST(IdentifyLegCli, ExciteLegThenLegFrictionRecoversTableV) {
  const auto dir = testDir();
  const auto log = dir / "siso_mLS.csv";
  Result r = cli("excite leg --force --out " + log.string() + " --side left --dof mLS" + kShort);
  ASSERT_EQ(r.code, 0) << r.out;
  const gapsim::CsvTable t = gapsim::CsvTable::read(log.string());
  for (const char* c : {"time_s", "u_mLA_Nm", "u_mLS_Nm", "q_mLA_rad", "q_mLS_rad"}) EXPECT_TRUE(t.has(c)) << c;

  r = cli("identify leg-friction --log " + log.string() + " --side left --dof mLS --force --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "mu_mLS"), 9.844e-3, 1e-5) << r.out;  // Table V, mLS_L
  const auto csv = dir / "siso_mLS_leg_friction.csv";
  ASSERT_TRUE(std::filesystem::exists(csv));
  const gapsim::CsvTable fit = gapsim::CsvTable::read(csv.string());
  EXPECT_TRUE(fit.has("q_mLS_sim_rad"));
  EXPECT_EQ(fit.rows(), t.rows());
}

TEST(IdentifyLegCli, ExciteLegMimoThenLegBiasRecoversTableV) {
  const auto dir = testDir();
  const auto log = dir / "mimo.csv";
  Result r = cli("excite leg --force --out " + log.string() + " --side right --dof both" + kShort);
  ASSERT_EQ(r.code, 0) << r.out;
  r = cli("identify leg-bias --log " + log.string() + " --side right --force --out " + dir.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "b_mLA"), -2.461e-3, 0.02 * 2.461e-3) << r.out;  // Table V, mLA_R
  EXPECT_NEAR(valueAfter(r.out, "b_mLS"), -1.446e-2, 0.02 * 1.446e-2) << r.out;  // Table V, mLS_R
}

TEST(IdentifyLegCli, BadInputExitsTwoNamingFileLineField) {
  const auto dir = testDir();
  std::string rows;
  for (int k = 0; k < 12; ++k) rows += std::to_string(0.001 * k) + ",0.1,7.8\n";
  const auto missing = dir / "missing.csv";
  std::ofstream(missing) << "time_s,u_mLS_Nm,q_mLA_rad\n" << rows;
  EXPECT_TRUE(
      cliExits("identify leg-friction --log " + missing.string() + " --dof mLS", 2, {missing.string(), "q_mLS_rad"}));

  const auto back = dir / "back.csv";
  {
    std::ofstream f(back);
    f << "time_s,u_mLS_Nm,q_mLS_rad\n";
    for (int k = 0; k < 12; ++k) f << (k == 6 ? 0.004 : 0.001 * k) << ",0.1,7.8\n";
  }
  EXPECT_TRUE(
      cliExits("identify leg-friction --log " + back.string() + " --dof mLS", 2, {back.string() + ":8: time_s"}));

  const auto ok = dir / "ok.csv";
  std::ofstream(ok) << "time_s,u_mLS_Nm,q_mLS_rad\n" << rows;
  EXPECT_TRUE(cliExits("identify leg-friction --log " + ok.string() + " --dof knee", 2, {"--dof"}));
  EXPECT_TRUE(cliExits("identify leg-friction --log " + ok.string() + " --dof mLS --side middle", 2, {"--side"}));
  // a MIMO fit needs both motors' columns
  EXPECT_TRUE(cliExits("identify leg-bias --log " + ok.string(), 2, {"u_mLA_Nm"}));
  EXPECT_TRUE(cliExits("identify leg-friction --log " + ok.string() + " --dof mLS --set mLS/K_T=abc", 2, {"--set"}));
}
