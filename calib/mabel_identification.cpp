// SPDX-License-Identifier: BSD-3-Clause
#include "calib/mabel_identification.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

#include "calib/log_sampling.h"
#include "sim/csv_table.h"
#include "sim/input_error.h"

namespace gapsim::calib {

namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

/// Shared ARX fit: rows k = 1..n-1 of [y_{k-1}, u_{k-1}(, 1)] -> y_k.
FirstOrderFit fitArx(std::span<const double> u, std::span<const double> y, double Ts, bool with_bias,
                     const char* what) {
  if (u.size() != y.size())
    throw std::invalid_argument(std::string(what) + ": u and omega differ in length (" + std::to_string(u.size()) +
                                " vs " + std::to_string(y.size()) + ")");
  const int cols = with_bias ? 3 : 2;
  if (u.size() < static_cast<std::size_t>(cols + 1))
    throw std::invalid_argument(std::string(what) + ": need at least " + std::to_string(cols + 1) + " samples");
  if (!positive(Ts)) throw std::invalid_argument(std::string(what) + ": sample time must be > 0, got " + sixDigits(Ts));
  const Eigen::Index n = static_cast<Eigen::Index>(u.size()) - 1;
  Eigen::MatrixXd A(n, cols);
  Eigen::VectorXd rhs(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    A(k, 0) = y[k];
    A(k, 1) = u[k];
    if (with_bias) A(k, 2) = 1.0;
    rhs(k) = y[k + 1];
  }
  const auto qr = A.colPivHouseholderQr();
  if (qr.rank() < cols)
    throw std::invalid_argument(std::string(what) + ": the data do not determine the model (rank " +
                                std::to_string(qr.rank()) + " < " + std::to_string(cols) + "); is the input exciting?");
  const Eigen::VectorXd x = qr.solve(rhs);
  FirstOrderFit f;
  f.a = x(0);
  f.b = x(1);
  if (with_bias) {
    f.bias_coefficient = x(2);
    f.bias_Nm = x(2) / x(1);
  }
  f.rows = static_cast<std::size_t>(n);
  f.residual_rms = std::sqrt((A * x - rhs).squaredNorm() / static_cast<double>(n));
  f.output_rms = std::sqrt(rhs.squaredNorm() / static_cast<double>(n));
  if (!(f.a > 0 && f.a < 1) || !(f.b > 0))
    throw std::invalid_argument(std::string(what) + ": the fit is not a stable first-order system (a = " +
                                sixDigits(f.a) + ", b = " + sixDigits(f.b) + "; need 0 < a < 1, b > 0)");
  f.mu_Nms = (1.0 - f.a) / f.b;
  f.J_kgm2 = -f.mu_Nms * Ts / std::log(f.a);
  return f;
}

}  // namespace

void ChirpOptions::validate() const {
  auto bad = [](const std::string& s) { throw std::invalid_argument("chirp: " + s); };
  if (!positive(f_start_Hz) || !positive(f_end_Hz) || !(f_end_Hz >= f_start_Hz))
    bad("frequencies must be > 0 with end >= start, got " + sixDigits(f_start_Hz) + " and " + sixDigits(f_end_Hz) +
        " Hz");
  if (steps < 1) bad("steps must be >= 1, got " + std::to_string(steps));
  if (periods < 1) bad("periods must be >= 1, got " + std::to_string(periods));
  if (!positive(amplitude_start_Nm) || !positive(amplitude_end_Nm))
    bad("amplitudes must be > 0, got " + sixDigits(amplitude_start_Nm) + " and " + sixDigits(amplitude_end_Nm) +
        " N m");
  if (!std::isfinite(offset_Nm)) bad("offset must be finite");
  if (!positive(sample_time_s)) bad("sample time must be > 0, got " + sixDigits(sample_time_s) + " s");
  if (1.0 / (f_end_Hz * sample_time_s) < 4.0)
    bad("sample time " + sixDigits(sample_time_s) + " s gives fewer than 4 samples per period at " +
        sixDigits(f_end_Hz) + " Hz");
  // The signal's length, before a sample is made: 1e9 periods or a 1 ns sample time used to fill
  // the memory for minutes. 1e7 samples (the paper's chirp has 1.2e5 at 1 ms) is the bound.
  constexpr double kMaxSamples = 1e7;
  if (steps > 1000000) bad("steps must be <= 1000000, got " + std::to_string(steps));
  double duration_s = 0;
  for (int j = 0; j < steps; ++j) {
    const double x = steps == 1 ? 0.0 : static_cast<double>(j) / (steps - 1);
    duration_s += periods / (f_start_Hz * std::pow(f_end_Hz / f_start_Hz, x));
  }
  if (!(duration_s / sample_time_s <= kMaxSamples))
    bad("the chirp would last " + sixDigits(duration_s) + " s, " + sixDigits(duration_s / sample_time_s) +
        " samples at " + sixDigits(sample_time_s) + " s: more than " + sixDigits(kMaxSamples) +
        " (fewer --steps or --periods, a higher --f-start or a longer --ts)");
}

ChirpSignal chirpExcitation(const ChirpOptions& o) {
  o.validate();
  ChirpSignal s;
  const double Ts = o.sample_time_s;
  double t_start = 0.0;
  long k = 0;
  for (int j = 0; j < o.steps; ++j) {
    const double x = o.steps == 1 ? 0.0 : static_cast<double>(j) / (o.steps - 1);
    const double f = o.f_start_Hz * std::pow(o.f_end_Hz / o.f_start_Hz, x);
    const double A = o.amplitude_start_Nm * std::pow(o.amplitude_end_Nm / o.amplitude_start_Nm, x);
    s.step_frequency_Hz.push_back(f);
    s.step_amplitude_Nm.push_back(A);
    const double t_end = t_start + o.periods / f;
    for (;; ++k) {
      const double t = static_cast<double>(k) * Ts;
      // Tolerance: a sample that falls on the boundary (up to rounding) starts the next step.
      if (t >= t_end - 1e-9 * Ts) break;
      s.time_s.push_back(t);
      s.u_Nm.push_back(o.offset_Nm + A * std::sin(2.0 * std::numbers::pi * f * (t - t_start)));
      s.frequency_Hz.push_back(f);
    }
    t_start = t_end;
  }
  return s;
}

Arx11 discretiseFirstOrder(double J, double mu, double Ts) {
  if (!positive(J) || !positive(mu) || !positive(Ts))
    throw std::invalid_argument("discretiseFirstOrder: J, mu and T_s must be > 0");
  Arx11 d;
  d.a = std::exp(-mu * Ts / J);
  d.b = (1.0 - d.a) / mu;
  return d;
}

FirstOrderFit fitFirstOrder(std::span<const double> u, std::span<const double> omega, double Ts) {
  return fitArx(u, omega, Ts, false, "first-order fit");
}

FirstOrderFit fitFirstOrderWithBias(std::span<const double> u, std::span<const double> omega, double Ts) {
  return fitArx(u, omega, Ts, true, "bias fit");
}

TorqueConstantFit fitTorqueConstant(std::span<const PulleyExperiment> e, double J_rotor_man) {
  if (e.size() < 2)
    throw std::invalid_argument("K_T fit: need at least two pulley combinations, got " + std::to_string(e.size()));
  if (!positive(J_rotor_man))
    throw std::invalid_argument("K_T fit: J_rotor_man must be > 0, got " + sixDigits(J_rotor_man));
  const Eigen::Index n = static_cast<Eigen::Index>(e.size());
  Eigen::MatrixXd G(n, 2);
  Eigen::VectorXd psi(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& x = e[static_cast<std::size_t>(i)];
    if (!std::isfinite(x.J_exp_kgm2) || !std::isfinite(x.J_pulley_kgm2) || !std::isfinite(x.J_cable_kgm2))
      throw std::invalid_argument("K_T fit: combination " + std::to_string(i + 1) + " has a non-finite value");
    G(i, 0) = J_rotor_man;
    G(i, 1) = x.J_pulley_kgm2 + x.J_cable_kgm2;
    psi(i) = x.J_exp_kgm2;
  }
  const auto qr = G.colPivHouseholderQr();
  if (qr.rank() < 2)
    throw std::invalid_argument("K_T fit: Gamma is rank deficient (the combinations need different lumped inertias)");
  const Eigen::Vector2d x = qr.solve(psi);
  TorqueConstantFit r;
  r.K_T_alpha = x(0);
  r.K_T = x(1);
  if (r.K_T == 0) throw std::invalid_argument("K_T fit: K_T = 0, alpha undefined");
  r.alpha = x(0) / x(1);
  r.J_rotor_kgm2 = r.alpha * J_rotor_man;
  r.residual_rms_kgm2 = std::sqrt((G * x - psi).squaredNorm() / static_cast<double>(n));
  return r;
}

LumpedInertia lumpPulleyChain(std::span<const Pulley> chain) {
  if (chain.empty()) throw std::invalid_argument("pulley chain: empty");
  LumpedInertia r;
  double G = 1.0;
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const Pulley& p = chain[k];
    if (k > 0) {
      const double ro = chain[k - 1].r_out_m, ri = p.r_in_m;
      if (!positive(ro))
        throw std::invalid_argument("pulley chain: pulley " + std::to_string(k - 1) + " needs r_out > 0");
      if (!positive(ri)) throw std::invalid_argument("pulley chain: pulley " + std::to_string(k) + " needs r_in > 0");
      G *= (ro * ro) / (ri * ri);  // (34)/(35), applied consecutively: (37)/(38)
      if (!(p.cable_density_kg_m >= 0) || !(p.cable_length_m >= 0))
        throw std::invalid_argument("pulley chain: pulley " + std::to_string(k) +
                                    " has a negative cable density/length");
      r.J_cable_kgm2 += G * ri * ri * p.cable_density_kg_m * p.cable_length_m;  // (36), (40)
    }
    if (!(p.J_kgm2 >= 0)) throw std::invalid_argument("pulley chain: pulley " + std::to_string(k) + " has J < 0");
    r.ratio_sq.push_back(G);
    r.J_pulley_kgm2 += G * p.J_kgm2;  // (39)
  }
  return r;
}

SpringStiffnessFit fitSpringStiffness(std::span<const SpringTest> tests, double W, double ratio) {
  if (tests.empty()) throw std::invalid_argument("spring fit: no static test");
  if (!positive(W)) throw std::invalid_argument("spring fit: robot weight must be > 0 N, got " + sixDigits(W));
  if (!positive(ratio)) throw std::invalid_argument("spring fit: ratio must be > 0, got " + sixDigits(ratio));
  SpringStiffnessFit r;
  double sxy = 0, sxx = 0;
  for (const auto& t : tests) {
    const double tau = std::abs(W * std::sin(t.q_LS_rad)) / ratio;  // (21), (23)
    const double q = std::abs(t.q_Bsp_rad);
    r.tau_Bsp_Nm.push_back(tau);
    r.K_B_each.push_back(q > 0 ? tau / q : NAN);  // (24)
    sxy += tau * q;
    sxx += q * q;
  }
  if (!(sxx > 0)) throw std::invalid_argument("spring fit: all spring deflections are zero");
  r.K_B_Nm_rad = sxy / sxx;
  double rss = 0;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const double e = r.tau_Bsp_Nm[i] - r.K_B_Nm_rad * std::abs(tests[i].q_Bsp_rad);
    rss += e * e;
  }
  r.residual_rms_Nm = std::sqrt(rss / static_cast<double>(tests.size()));
  return r;
}

ChirpLog ChirpLog::read(const std::string& path) {
  const CsvTable t = CsvTable::read(path);
  ChirpLog log;
  log.source = path;
  log.time_s = t.column("time_s");
  log.u_Nm = t.column("u_Nm");
  log.omega_rad_s = t.column("omega_rad_s");
  const std::size_t n = log.time_s.size();
  if (n < 4) throw InputError(path, 0, "", "a chirp log needs at least 4 samples, got " + std::to_string(n));
  log.sample_time_s = uniformSampleTime_s(t, log.time_s, path, "the ARX fit needs a constant sample time");
  return log;
}

}  // namespace gapsim::calib
