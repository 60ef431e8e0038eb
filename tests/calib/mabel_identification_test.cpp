// SPDX-License-Identifier: BSD-3-Clause
// MABEL identification (paper 003): the chirp of Section IV-C, the first-order fit of (7) and the
// bias ARX of Appendix A on data simulated by the exact discretisation, K_T and alpha by (10)-(12),
// inertia lumping (Appendix B) against a hand computation, the spring stiffness by (21)-(24).
#include "calib/mabel_identification.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "calib/rng.h"

using namespace gapsim::calib;

namespace {

constexpr double kPi = std::numbers::pi;

/// omega_k = a omega_{k-1} + b (u_{k-1} + bias) + e_k, e_k ~ N(0, sigma^2) (equation error, the
/// noise model under which least-squares ARX is consistent), omega_0 = 0.
std::vector<double> simulate(const std::vector<double>& u, double J, double mu, double Ts, double bias, double sigma,
                             std::uint64_t seed) {
  const Arx11 d = discretiseFirstOrder(J, mu, Ts);
  Rng rng(seed);
  std::vector<double> w(u.size(), 0.0);
  for (std::size_t k = 1; k < u.size(); ++k) w[k] = d.a * w[k - 1] + d.b * (u[k - 1] + bias) + sigma * rng.normal();
  return w;
}

double rms(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

TEST(MabelChirp, PaperSchedule) {
  ChirpOptions o;  // 0.5 .. 50 Hz, 17 steps, 10 periods, T_s = 1 ms
  const ChirpSignal s = chirpExcitation(o);
  ASSERT_EQ(s.step_frequency_Hz.size(), 17u);
  EXPECT_DOUBLE_EQ(s.step_frequency_Hz.front(), 0.5);
  EXPECT_NEAR(s.step_frequency_Hz.back(), 50.0, 1e-12);
  EXPECT_NEAR(s.step_frequency_Hz[8], 5.0, 1e-12);  // geometric middle
  EXPECT_DOUBLE_EQ(s.step_amplitude_Nm.front(), o.amplitude_start_Nm);
  EXPECT_NEAR(s.step_amplitude_Nm.back(), o.amplitude_end_Nm, 1e-12);
  double duration = 0;
  for (double f : s.step_frequency_Hz) duration += 10.0 / f;
  EXPECT_NEAR(static_cast<double>(s.time_s.size()) * o.sample_time_s, duration, 17 * o.sample_time_s);
  ASSERT_EQ(s.u_Nm.size(), s.time_s.size());
  EXPECT_DOUBLE_EQ(s.time_s[1], 0.001);
  EXPECT_DOUBLE_EQ(s.u_Nm[0], 0.0);
  EXPECT_NEAR(s.u_Nm[500], 0.05 * std::sin(2 * kPi * 0.5 * 0.5), 1e-12);  // quarter period: peak
  // Continuous: no jump larger than the steepest slope times T_s.
  double max_jump = 0;
  for (std::size_t k = 1; k < s.u_Nm.size(); ++k) max_jump = std::max(max_jump, std::abs(s.u_Nm[k] - s.u_Nm[k - 1]));
  EXPECT_LE(max_jump, 2 * kPi * 50.0 * 0.5 * 0.001 * 1.0001);
  double peak = 0;
  for (double u : s.u_Nm) peak = std::max(peak, std::abs(u));
  EXPECT_LE(peak, o.amplitude_end_Nm + 1e-12);

  o.sample_time_s = 0.01;  // 2 samples per period at 50 Hz
  EXPECT_THROW(chirpExcitation(o), std::invalid_argument);
}

TEST(MabelFirstOrder, RecoversJAndMuFromAChirp) {
  const double J = 8.819e-4, mu = 5.655e-3, Ts = 0.001;  // Table III, mLS_L, i = 1
  const ChirpSignal s = chirpExcitation(ChirpOptions{});
  const std::vector<double> clean = simulate(s.u_Nm, J, mu, Ts, 0, 0, 1);
  // Exact data: exact recovery.
  FirstOrderFit f = fitFirstOrder(s.u_Nm, clean, Ts);
  EXPECT_NEAR(f.J_kgm2 / J, 1.0, 1e-8);
  EXPECT_NEAR(f.mu_Nms / mu, 1.0, 1e-8);
  // Equation-error noise of 0.1 % of the velocity rms per step.
  const double sigma = 1e-3 * rms(clean);
  const std::vector<double> noisy = simulate(s.u_Nm, J, mu, Ts, 0, sigma, 42);
  f = fitFirstOrder(s.u_Nm, noisy, Ts);
  EXPECT_NEAR(f.J_kgm2 / J, 1.0, 0.01) << "J " << f.J_kgm2;
  EXPECT_NEAR(f.mu_Nms / mu, 1.0, 0.01) << "mu " << f.mu_Nms;
  EXPECT_NEAR(f.residual_rms, sigma, 0.05 * sigma);
  EXPECT_EQ(f.rows, s.u_Nm.size() - 1);

  const std::vector<double> zeros(10, 0.0);
  EXPECT_THROW(fitFirstOrder(zeros, zeros, Ts), std::invalid_argument);
  EXPECT_THROW(fitFirstOrder(s.u_Nm, std::vector<double>(3, 0.0), Ts), std::invalid_argument);
  EXPECT_THROW(fitFirstOrder(s.u_Nm, clean, 0.0), std::invalid_argument);
}

TEST(MabelBias, TwoInputArxRecoversTheBias) {
  const double J = 5.514e-4, mu = 2.332e-3, Ts = 0.001, bias = 0.012;  // mLA_L, i = 1
  // Appendix A: an unbiased sinusoid on the isolated motor.
  std::vector<double> u;
  for (int k = 0; k < 20000; ++k) u.push_back(0.05 * std::sin(2 * kPi * 1.0 * k * Ts));
  const std::vector<double> w = simulate(u, J, mu, Ts, bias, 1e-4, 7);
  const FirstOrderFit f = fitFirstOrderWithBias(u, w, Ts);
  EXPECT_NEAR(f.bias_Nm, bias, 0.01 * bias) << f.bias_Nm;
  EXPECT_NEAR(f.J_kgm2 / J, 1.0, 0.01);
  EXPECT_NEAR(f.mu_Nms / mu, 1.0, 0.01);
  EXPECT_NEAR(f.bias_coefficient / f.b, f.bias_Nm, 1e-15);
  // Without the bias column the same data give no bias (and a distorted model).
  EXPECT_EQ(fitFirstOrder(u, w, Ts).bias_Nm, 0.0);
}

TEST(MabelTorqueConstant, ThreeCombinations) {
  const double Jman = 3.3e-4, KT = 1.12, alpha = 1.35;
  std::vector<PulleyExperiment> e = {{0, 0.0, 0.0}, {0, 2.1e-4, 1.0e-6}, {0, 3.4e-4, 2.5e-6}};
  for (auto& x : e) x.J_exp_kgm2 = KT * (alpha * Jman + x.J_pulley_kgm2 + x.J_cable_kgm2);  // (10)
  TorqueConstantFit r = fitTorqueConstant(e, Jman);
  EXPECT_NEAR(r.K_T, KT, 1e-10);
  EXPECT_NEAR(r.alpha, alpha, 1e-10);
  EXPECT_NEAR(r.K_T_alpha, KT * alpha, 1e-10);
  EXPECT_NEAR(r.J_rotor_kgm2, alpha * Jman, 1e-15);
  EXPECT_LT(r.residual_rms_kgm2, 1e-15);
  // Inconsistent data: the least-squares solution of (12), checked against the normal equations.
  e[1].J_exp_kgm2 *= 1.02;
  r = fitTorqueConstant(e, Jman);
  double g11 = 0, g12 = 0, g22 = 0, p1 = 0, p2 = 0;
  for (const auto& x : e) {
    const double c = x.J_pulley_kgm2 + x.J_cable_kgm2;
    g11 += Jman * Jman, g12 += Jman * c, g22 += c * c, p1 += Jman * x.J_exp_kgm2, p2 += c * x.J_exp_kgm2;
  }
  const double det = g11 * g22 - g12 * g12;
  EXPECT_NEAR(r.K_T_alpha, (g22 * p1 - g12 * p2) / det, 1e-9);
  EXPECT_NEAR(r.K_T, (g11 * p2 - g12 * p1) / det, 1e-9);
  EXPECT_GT(r.residual_rms_kgm2, 0);

  std::vector<PulleyExperiment> same = {{1e-3, 1e-4, 0}, {1.1e-3, 1e-4, 0}};
  EXPECT_THROW(fitTorqueConstant(same, Jman), std::invalid_argument);
  EXPECT_THROW(fitTorqueConstant(std::span(e).first(1), Jman), std::invalid_argument);
  EXPECT_THROW(fitTorqueConstant(e, 0.0), std::invalid_argument);
}

TEST(MabelInertiaLumping, HandComputedThreePulleyChain) {
  // Motor pulley (r_o = 1 cm, its J belongs to the rotor as in (39)), a step-down pulley
  // (r_i = 5 cm, r_o = 2 cm), a standard pulley (r_i = r_o = 4 cm).
  const std::vector<Pulley> chain = {
      {0.0, 0.01, 0.0, 0, 0},
      {0.05, 0.02, 1e-4, 0.01, 0.5},
      {0.04, 0.04, 2e-4, 0.01, 0.3},
  };
  const LumpedInertia r = lumpPulleyChain(chain);
  // G_1 = (0.01 / 0.05)^2 = 0.04, G_2 = 0.04 (0.02 / 0.04)^2 = 0.01.
  ASSERT_EQ(r.ratio_sq.size(), 3u);
  EXPECT_DOUBLE_EQ(r.ratio_sq[0], 1.0);
  EXPECT_NEAR(r.ratio_sq[1], 0.04, 1e-15);
  EXPECT_NEAR(r.ratio_sq[2], 0.01, 1e-15);
  // (39): 0.04 * 1e-4 + 0.01 * 2e-4 = 6e-6.
  EXPECT_NEAR(r.J_pulley_kgm2, 6e-6, 1e-18);
  // (36), (40): 0.04 * 0.05^2 * 0.01 * 0.5 + 0.01 * 0.04^2 * 0.01 * 0.3 = 5e-7 + 4.8e-8.
  EXPECT_NEAR(r.J_cable_kgm2, 5.48e-7, 1e-19);
  // The motor pulley's own J, if given, counts with ratio 1.
  std::vector<Pulley> with_motor = chain;
  with_motor[0].J_kgm2 = 3e-6;
  EXPECT_NEAR(lumpPulleyChain(with_motor).J_pulley_kgm2, 9e-6, 1e-18);
  std::vector<Pulley> bad = chain;
  bad[1].r_in_m = 0;
  EXPECT_THROW(lumpPulleyChain(bad), std::invalid_argument);
  EXPECT_THROW(lumpPulleyChain(std::span<const Pulley>{}), std::invalid_argument);
}

TEST(MabelSpring, StaticTestsGiveTheStiffness) {
  const double W = 9.81 * 65.0, KB = 1200.0, ratio = 5.18043;
  std::vector<SpringTest> tests;
  for (double deg = 10; deg <= 30; deg += 5) {
    const double q = deg * kPi / 180;
    tests.push_back({q, -W * std::sin(q) / (ratio * KB)});  // sign of the deflection does not matter (24)
  }
  SpringStiffnessFit r = fitSpringStiffness(tests, W);
  EXPECT_NEAR(r.K_B_Nm_rad, KB, 1e-9);
  ASSERT_EQ(r.K_B_each.size(), tests.size());
  for (double k : r.K_B_each) EXPECT_NEAR(k, KB, 1e-9);
  EXPECT_LT(r.residual_rms_Nm, 1e-12);
  // Perturbed deflections: the through-origin least-squares slope.
  tests[0].q_Bsp_rad *= 1.05;
  tests[4].q_Bsp_rad *= 0.97;
  r = fitSpringStiffness(tests, W);
  double sxy = 0, sxx = 0;
  for (const auto& t : tests) {
    const double tau = W * std::sin(t.q_LS_rad) / ratio, q = std::abs(t.q_Bsp_rad);
    sxy += tau * q, sxx += q * q;
  }
  EXPECT_NEAR(r.K_B_Nm_rad, sxy / sxx, 1e-9);
  EXPECT_NEAR(r.K_B_Nm_rad, KB, 0.03 * KB);
  EXPECT_THROW(fitSpringStiffness(tests, 0.0), std::invalid_argument);
  EXPECT_THROW(fitSpringStiffness(std::vector<SpringTest>{{0.3, 0.0}}, W), std::invalid_argument);
}
