// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli excite chirp and identify chirp|bias|transmission|spring (MABEL paper 003), as a user
// runs them: the chirp file, J and mu recovered from a log simulated with the exact discretisation,
// and bad input exiting 2 with file, line and field.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <string>

#include "calib/mabel_identification.h"
#include "sim/csv_table.h"
#include "tests/app/cli_runner.h"

namespace {

using namespace gapsim::test;  // cli_runner.h: the test-support helpers
using Result = CliResult;

std::filesystem::path testDir() { return gapsim::test::testDir("gapsim_identify_mabel_cli_test"); }

}  // namespace

TEST(IdentifyMabelCli, ExciteChirpThenIdentifyChirpRecoversJAndMu) {
  const auto dir = testDir();
  const auto chirp = dir / "chirp.csv";
  std::filesystem::remove(chirp);
  Result r = cli("excite chirp --out " + chirp.string() + " --ts 0.001 --amplitude 0.05 --amplitude-end 0.5");
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(std::filesystem::exists(chirp));
  EXPECT_TRUE(contains(gapsim::test::slurp(chirp.string()), "\ntime_s,u_Nm\n"));
  const gapsim::CsvTable t = gapsim::CsvTable::read(chirp.string());
  const auto time = t.column("time_s");
  const auto u = t.column("u_Nm");
  ASSERT_GT(u.size(), 70000u);  // sum over the 17 steps of 10 / f_j s, about 79 s at 1 ms

  // The motor's response: exact zero-order-hold discretisation of J omega_dot + mu omega = u.
  const double J = 7.223e-4, mu = 4.365e-3;  // paper 003, Table III, mLA_L, i = 2
  const gapsim::calib::Arx11 d = gapsim::calib::discretiseFirstOrder(J, mu, 0.001);
  const auto log = dir / "response.csv";
  {
    std::ofstream f(log);
    f << "time_s,u_Nm,omega_rad_s\n" << std::setprecision(17);
    double w = 0;
    for (std::size_t k = 0; k < u.size(); ++k) {
      if (k > 0) w = d.a * w + d.b * u[k - 1];
      f << time[k] << ',' << u[k] << ',' << w << '\n';
    }
  }
  r = cli("identify chirp --log " + log.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "J_kgm2") / J, 1.0, 1e-4) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "mu_Nms") / mu, 1.0, 1e-4) << r.out;
  r = cli("identify bias --log " + log.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "bias_Nm"), 0.0, 1e-6) << r.out;
  // The output-error refinement (Ceres) keeps the exact answer and prints its intervals.
  r = cli("identify chirp --refine --log " + log.string());
  ASSERT_TRUE(exitedWith(r, 0, {"output-error refinement", "95% intervals"}));
  EXPECT_NEAR(valueAfter(r.out, "J_kgm2") / J, 1.0, 1e-4) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "mu_Nms") / mu, 1.0, 1e-4) << r.out;
}

TEST(IdentifyMabelCli, TransmissionAndSpringTables) {
  const auto dir = testDir();
  const double Jman = 3.3e-4, KT = 1.12, alpha = 1.35;
  const auto tab = dir / "combinations.csv";
  {
    std::ofstream f(tab);
    f << "J_exp_kgm2,J_pulley_kgm2,J_cable_kgm2\n" << std::setprecision(17);
    for (double jp : {0.0, 2.1e-4, 3.4e-4}) f << KT * (alpha * Jman + jp) << ',' << jp << ",0\n";
  }
  Result r = cli("identify transmission --table " + tab.string() + " --rotor-inertia 3.3e-4");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "K_T"), KT, 1e-5) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "alpha"), alpha, 1e-5) << r.out;

  const double W = 637.65, KB = 1200;
  const auto spring = dir / "spring.csv";
  {
    std::ofstream f(spring);
    f << "q_LS_rad,q_Bsp_rad\n" << std::setprecision(17);
    for (double deg : {10.0, 20.0, 30.0}) {
      const double q = deg * M_PI / 180;
      f << q << ',' << W * std::sin(q) / (5.18043 * KB) << '\n';
    }
  }
  r = cli("identify spring --table " + spring.string() + " --weight 637.65");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(valueAfter(r.out, "K_B_Nm_rad"), KB, 1e-2) << r.out;
}

TEST(IdentifyMabelCli, BadInputExitsTwoNamingFileLineField) {
  const auto dir = testDir();
  const auto bad = dir / "bad.csv";
  std::ofstream(bad) << "time_s,u_Nm,omega_rad_s\n0,0,0\n0.001,0.1,0\n0.002,0.1,abc\n0.003,0.1,0.2\n";
  EXPECT_TRUE(cliExits("identify chirp --log " + bad.string(), 2, {bad.string() + ":4: omega_rad_s"}));

  const auto gap = dir / "gap.csv";
  std::ofstream(gap) << "time_s,u_Nm,omega_rad_s\n0,0,0\n0.001,0.1,0\n0.002,0.1,0.1\n0.005,0.1,0.2\n0.006,0,0.2\n";
  EXPECT_TRUE(cliExits("identify chirp --log " + gap.string(), 2, {gap.string() + ":5: time_s"}));

  const auto missing = dir / "missing.csv";
  std::ofstream(missing) << "time_s,u_Nm\n0,0\n0.001,0\n";
  EXPECT_TRUE(cliExits("identify chirp --log " + missing.string(), 2, {"omega_rad_s"}));

  EXPECT_TRUE(cliExits("identify chirp --log /nonexistent_chirp.csv", 2, {"/nonexistent_chirp.csv"}));

  EXPECT_TRUE(cliExits("excite chirp --out " + (dir / "x.csv").string() + " --ts 0.05", 2, {"samples per period"}));
  EXPECT_EQ(cli("excite").code, 2);
  EXPECT_EQ(cli("excite chirp --help").code, 0);
  EXPECT_EQ(cli("identify chirp --help").code, 0);
}
