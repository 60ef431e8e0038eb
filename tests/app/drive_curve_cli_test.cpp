// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli drive-curve as a user runs it: the BIOLOID's knee servo drawn (CSV with units, PNG
// when gnuplot is there), the stall torque of the law that runs (the AX-18A's stall torque, or the
// paper law's clamp tau_max, less the Coulomb friction), and bad input with exit 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers

TEST(DriveCurveCli, BioloidKneeEnvelope) {
  const auto dir = gapsim::test::testDir("gapsim_drive_curve_cli");
  std::filesystem::remove_all(dir);
  const std::string png = (dir / "l_shin.png").string();
  const auto r = cli("drive-curve --robot bioloid --joint l_shin --points 41 --out " + png);
  ASSERT_EQ(r.code, 0) << r.out;
  // The file's AX-18A: the stall torque 1.8 N m at the supply less the Coulomb friction 0.06 N m
  // against the push.
  EXPECT_NEAR(valueAfter(r.out, "stall_max_Nm"), 1.8 - 0.06, 1e-9) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "stall_min_Nm"), -1.8 + 0.06, 1e-9) << r.out;
  // The paper law (bioloid_paper_law.urdf): clamp +-0.75 N m at rest, and the motor row's
  // kc = 0.03 N m against the push.
  const auto paper =
      cli("drive-curve --robot " + std::string(GAPSIM_SOURCE_DIR) +
          "/robots/bioloid/bioloid_paper_law.urdf --joint l_shin --points 41 --out " + (dir / "paper.png").string());
  ASSERT_EQ(paper.code, 0) << paper.out;
  EXPECT_NEAR(valueAfter(paper.out, "stall_max_Nm"), 0.75 - 0.03, 1e-9) << paper.out;
  EXPECT_NEAR(valueAfter(paper.out, "stall_min_Nm"), -0.75 + 0.03, 1e-9) << paper.out;
  const std::string csv = slurp((dir / "l_shin.csv").string());
  EXPECT_EQ(csv.rfind("qd_rad_s,tau_max_Nm,tau_min_Nm,power_max_W,power_min_W,quadrant_max,quadrant_min,settled\n", 0),
            0u)
      << csv.substr(0, 200);
  EXPECT_TRUE(contains(csv, ",drive,") && contains(csv, ",backdrive,"));
  EXPECT_EQ(contains(r.out, "figure: "), std::filesystem::exists(png)) << r.out;
  // With the outputs there, a second run is refused without --force.
  EXPECT_EQ(cli("drive-curve --robot bioloid --joint l_shin --points 41 --out " + png).code, 2);
  EXPECT_EQ(cli("drive-curve --robot bioloid --joint l_shin --points 41 --force --out " + png).code, 0);
}

TEST(DriveCurveCli, BadInputIsExitTwoWithTheField) {
  const auto dir = gapsim::test::testDir("gapsim_drive_curve_cli_bad");
  const std::string out = " --force --out " + (dir / "x.png").string();
  auto r = cli("drive-curve --robot bioloid --joint no_knee" + out);
  EXPECT_TRUE(exitedWith(r, 2, {"--joint", "no joint 'no_knee'"}));
  EXPECT_TRUE(cliExits("drive-curve --robot bioloid --joint l_shin --points 1" + out, 2, {"--points"}));
  r = cli("drive-curve --robot bioloid --joint l_shin --max-speed -3" + out);
  EXPECT_EQ(r.code, 2) << r.out;
  r = cli("drive-curve --robot bioloid --joint l_shin --out " + (dir / "x.png").string() + " --csv " +
          (dir / "x.png").string() + " --force");
  EXPECT_EQ(r.code, 2) << r.out;
}

}  // namespace
