// SPDX-License-Identifier: BSD-3-Clause
// MABEL's transmission identification workflows (calib/mabel_id_workflow.h) called as a library:
// a chirp log simulated by the exact discretisation of J omega_dot + mu omega = u gives J and mu
// back (ARX and output-error refinement), pulley combinations built from eq. (10) give K_T and
// alpha, static tests built from eq. (24) give K_B; the reports say what was fitted, bad options
// throw naming the option, and options and results survive JSON.
#include "calib/mabel_id_workflow.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "sim/input_error.h"
#include "tests/scratch_files.h"
#include "tests/throws_saying.h"

using namespace gapsim;
using namespace gapsim::calib;

namespace {

using gapsim::test::throwsSaying;

namespace fs = std::filesystem;

using gapsim::test::freshDir;

/// A short chirp through omega_k = a omega_{k-1} + b u_{k-1} (the exact discretisation of eq. 7),
/// written with 17 digits so the ARX sees the data it would in memory.
std::string writeChirpLog(const fs::path& dir, double J_kgm2, double mu_Nms) {
  ChirpOptions c;
  c.f_end_Hz = 20;
  c.steps = 6;
  c.periods = 4;
  const ChirpSignal s = chirpExcitation(c);
  const Arx11 d = discretiseFirstOrder(J_kgm2, mu_Nms, c.sample_time_s);
  const std::string path = (dir / "chirp.csv").string();
  std::ofstream f(path);
  f << "time_s,u_Nm,omega_rad_s\n" << std::setprecision(17);
  double w = 0;
  for (std::size_t k = 0; k < s.u_Nm.size(); ++k) {
    if (k > 0) w = d.a * w + d.b * s.u_Nm[k - 1];
    f << s.time_s[k] << ',' << s.u_Nm[k] << ',' << w << '\n';
  }
  return path;
}

}  // namespace

TEST(MabelIdWorkflow, FirstOrderRecoversJAndMuAndRoundTrips) {
  const fs::path dir = freshDir("gapsim_mabel_id_workflow_chirp");
  const double J = 8.819e-4, mu = 5.655e-3;  // Table III, mLS_L, i = 1
  FirstOrderIdOptions o;
  o.log = writeChirpLog(dir, J, mu);
  o.refine = true;
  std::ostringstream report;
  const FirstOrderIdResult r = identifyFirstOrder(o, &report);
  const std::string text = report.str();
  EXPECT_LT(text.find("ARX(1,1) (paper 003, eq. 7): " + o.log), text.find("output-error refinement")) << text;
  // Exact data: the ARX finds the model (up to the 17-digit rounding), the refinement keeps it.
  EXPECT_NEAR(r.arx.J_kgm2 / J, 1.0, 1e-6);
  EXPECT_NEAR(r.arx.mu_Nms / mu, 1.0, 1e-6);
  EXPECT_TRUE(r.refined);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.J_kgm2 / J, 1.0, 1e-6);
  EXPECT_NEAR(r.mu_Nms / mu, 1.0, 1e-6);
  EXPECT_EQ(r.bias_Nm, 0.0);
  EXPECT_EQ(r.J_kgm2, r.refinement.J_kgm2);

  const FirstOrderIdOptions o2 = FirstOrderIdOptions::fromJson(o.toJson());
  EXPECT_EQ(o2.log, o.log);
  EXPECT_TRUE(o2.refine);
  EXPECT_EQ(o2.toJson(), o.toJson());
  const FirstOrderIdResult r2 = FirstOrderIdResult::fromJson(r.toJson());
  EXPECT_EQ(r2.J_kgm2, r.J_kgm2);
  EXPECT_EQ(r2.arx.a, r.arx.a);
  EXPECT_EQ(r2.refinement.iterations, r.refinement.iterations);
  EXPECT_EQ(r2.toJson(), r.toJson());
  fs::remove_all(dir);
}

TEST(MabelIdWorkflow, TransmissionGivesKtAndAlphaAndRoundTrips) {
  const fs::path dir = freshDir("gapsim_mabel_id_workflow_transmission");
  const double Jman = 3.3e-4, KT = 1.12, alpha = 1.35;
  const std::string table = (dir / "pulleys.csv").string();
  {
    std::ofstream f(table);
    f << "J_exp_kgm2,J_pulley_kgm2,J_cable_kgm2\n" << std::setprecision(17);
    for (const auto& [Jp, Jc] : {std::pair(0.0, 0.0), std::pair(2.1e-4, 1.0e-6), std::pair(3.4e-4, 2.5e-6)})
      f << KT * (alpha * Jman + Jp + Jc) << ',' << Jp << ',' << Jc << '\n';  // eq. (10)
  }
  TransmissionIdOptions o;
  o.table = table;
  o.J_rotor_man_kgm2 = Jman;
  std::ostringstream report;
  const TransmissionIdResult r = identifyTransmission(o, &report);
  EXPECT_EQ(r.combinations, 3);
  EXPECT_NEAR(r.fit.K_T, KT, 1e-9);
  EXPECT_NEAR(r.fit.alpha, alpha, 1e-9);
  EXPECT_NE(report.str().find("K_T and alpha from 3 pulley combinations"), std::string::npos) << report.str();
  EXPECT_EQ(TransmissionIdOptions::fromJson(o.toJson()).toJson(), o.toJson());
  const TransmissionIdResult r2 = TransmissionIdResult::fromJson(r.toJson());
  EXPECT_EQ(r2.fit.K_T, r.fit.K_T);
  EXPECT_EQ(r2.toJson(), r.toJson());

  o.J_rotor_man_kgm2 = 0;
  EXPECT_TRUE(throwsSaying<InputError>([&] { identifyTransmission(o); }, {"--rotor-inertia"}));
  fs::remove_all(dir);
}

TEST(MabelIdWorkflow, SpringGivesTheStiffnessAndRoundTrips) {
  const fs::path dir = freshDir("gapsim_mabel_id_workflow_spring");
  const double W = 9.81 * 65.0, KB = 1200.0, ratio = 5.18043;
  const std::string table = (dir / "spring.csv").string();
  {
    std::ofstream f(table);
    f << "q_LS_rad,q_Bsp_rad\n" << std::setprecision(17);
    for (double deg = 10; deg <= 30; deg += 5) {
      const double q = deg * std::numbers::pi / 180;
      f << q << ',' << -W * std::sin(q) / (ratio * KB) << '\n';  // eq. (24)
    }
  }
  SpringIdOptions o;
  o.table = table;
  o.weight_N = W;
  std::ostringstream report;
  const SpringIdResult r = identifySpring(o, &report);
  ASSERT_EQ(r.tests.size(), 5u);
  EXPECT_NEAR(r.fit.K_B_Nm_rad, KB, 1e-6);
  EXPECT_NE(report.str().find("spring stiffness from 5 static tests"), std::string::npos) << report.str();
  EXPECT_EQ(SpringIdOptions::fromJson(o.toJson()).toJson(), o.toJson());
  const SpringIdResult r2 = SpringIdResult::fromJson(r.toJson());
  EXPECT_EQ(r2.tests.size(), r.tests.size());
  EXPECT_EQ(r2.fit.K_B_each, r.fit.K_B_each);
  EXPECT_EQ(r2.toJson(), r.toJson());

  o.weight_N = -1;
  EXPECT_THROW(identifySpring(o), InputError);
  fs::remove_all(dir);
}
