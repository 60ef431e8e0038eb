// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Identification of MABEL's transmission (paper 003, Park, Ramezani, Grizzle: "A Compliant
/// Hybrid Zero Dynamics Controller..." / MABEL model identification). Pure numerical functions:
///
///  - the chirp input of Section IV-C: 0.5 Hz to 50 Hz in 17 logarithmic steps, 10 periods each,
///    with an amplitude that grows with the step (chirpExcitation);
///  - the first-order model (7)  J omega_dot + mu omega = u  from (u, omega) samples by an ARX(1,1)
///    fit (fitFirstOrder);
///  - the amplifier bias by the two-input ARX of Appendix A, eqs. (31)-(33) (fitFirstOrderWithBias);
///  - K_T and the rotor inertia factor alpha from several pulley combinations, eqs. (10)-(12)
///    (fitTorqueConstant);
///  - lumping pulley and cable inertias through a pulley chain, Appendix B, eqs. (34)-(40)
///    (lumpPulleyChain);
///  - the spring stiffness from static tests, eqs. (21)-(24) (fitSpringStiffness).
///
/// Units: SI throughout (N m, rad/s, kg m^2, s, m, kg/m, N).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gapsim::calib {

// ---------------------------------------------------------------------------------------------
// Chirp excitation (Section IV-C)

/// Parameters of the chirp. Frequencies f_j = f_start (f_end / f_start)^(j / (steps - 1)),
/// j = 0..steps-1 (logarithmic steps, both ends included). Each frequency is held for `periods`
/// whole periods, starting at phase 0, so the signal is continuous at every step change.
///
/// Amplitude law (the paper only says "the magnitude was also incremented to keep the measured
/// motor angular velocity from becoming too small"): geometric growth from amplitude_start_Nm at
/// the first step to amplitude_end_Nm at the last,
///     A_j = A_start (A_end / A_start)^(j / (steps - 1)).
/// The velocity amplitude of (7) at high frequency is A / (J 2 pi f); with the defaults (10x over
/// a 100x frequency range) it falls only by 10x instead of 100x across the chirp.
struct ChirpOptions {
  double f_start_Hz = 0.5;
  double f_end_Hz = 50.0;
  int steps = 17;
  int periods = 10;
  double amplitude_start_Nm = 0.05;
  double amplitude_end_Nm = 0.5;
  double offset_Nm = 0.0;  ///< constant added to every sample
  double sample_time_s = 0.001;
  /// Throws std::invalid_argument naming the offending value (also if the highest frequency has
  /// fewer than 4 samples per period).
  void validate() const;
};

struct ChirpSignal {
  std::vector<double> time_s;  ///< k T_s, k = 0..n-1
  std::vector<double> u_Nm;
  std::vector<double> frequency_Hz;                          ///< frequency of each sample's step
  std::vector<double> step_frequency_Hz, step_amplitude_Nm;  ///< per step
};

/// Samples t_k = k T_s; sample k belongs to step j while t_k - t_start_j < periods / f_j, and
/// u_k = offset + A_j sin(2 pi f_j (t_k - t_start_j)), t_start_{j+1} = t_start_j + periods / f_j.
ChirpSignal chirpExcitation(const ChirpOptions& options);

// ---------------------------------------------------------------------------------------------
// First-order model (7) from (u, omega)

/// Exact zero-order-hold discretisation of J omega_dot + mu omega = u with u constant over a
/// sample:  omega_k = a omega_{k-1} + b u_{k-1},  a = exp(-mu T_s / J),  b = (1 - a) / mu.
struct Arx11 {
  double a = 0.0, b = 0.0;
};
Arx11 discretiseFirstOrder(double J_kgm2, double mu_Nms, double sample_time_s);

struct FirstOrderFit {
  double a = 0.0, b = 0.0;        ///< ARX coefficients
  double bias_coefficient = 0.0;  ///< b2 of (32) (0 for fitFirstOrder)
  double bias_Nm = 0.0;           ///< b2 / b1, (33) (0 for fitFirstOrder)
  double J_kgm2 = 0.0;            ///< -mu T_s / ln a
  double mu_Nms = 0.0;            ///< (1 - a) / b
  double residual_rms = 0.0;      ///< rms one-step-ahead prediction error of omega [rad/s]
  double output_rms = 0.0;        ///< rms of omega_k over the fitted rows
  std::size_t rows = 0;           ///< equations used (n - 1)
};

/// ARX(1,1) y_k = a y_{k-1} + b u_{k-1}, k = 1..n-1, by linear least squares (column-pivoted
/// QR), y = omega; then mu = (1 - a)/b and J = -mu T_s / ln a (the inverse of
/// discretiseFirstOrder). Throws std::invalid_argument if the sizes differ, n < 3, T_s <= 0, or
/// the fit is not a stable first-order system (need 0 < a < 1 and b > 0).
FirstOrderFit fitFirstOrder(std::span<const double> u_Nm, std::span<const double> omega_rad_s, double sample_time_s);

/// Appendix A, (31)-(33): the two-input ARX y_k = a1 y_{k-1} + b1 u_{k-1} + b2 * 1 by linear
/// least squares; the amplifier bias is b2 / b1 (torque the amplifier adds to every command:
/// the plant sees u + bias). J and mu from a1, b1 as in fitFirstOrder. Same errors.
FirstOrderFit fitFirstOrderWithBias(std::span<const double> u_Nm, std::span<const double> omega_rad_s,
                                    double sample_time_s);

// ---------------------------------------------------------------------------------------------
// K_T and alpha, (10)-(12)

/// One pulley combination i: J_i^exp identified from the experiment (the J of fitFirstOrder),
/// J_i^pulley + J_i^cable from the CAD model (lumpPulleyChain).
struct PulleyExperiment {
  double J_exp_kgm2 = 0.0;
  double J_pulley_kgm2 = 0.0;
  double J_cable_kgm2 = 0.0;
};

struct TorqueConstantFit {
  double K_T = 0.0;                ///< scale from the commanded to the actual torque (dimensionless)
  double alpha = 0.0;              ///< J_rotor / J_rotor_man (9)
  double K_T_alpha = 0.0;          ///< first unknown of (11)
  double J_rotor_kgm2 = 0.0;       ///< alpha J_rotor_man
  double residual_rms_kgm2 = 0.0;  ///< rms of Psi - Gamma x
};

/// (10) J_i^exp = K_T (alpha J_rotor_man + J_i^pulley + J_i^cable), i.e. (11) Psi = Gamma x with
/// rows Gamma_i = [J_rotor_man, J_i^pulley + J_i^cable], x = [K_T alpha, K_T], solved by least
/// squares (12) (QR, equivalent to (Gamma' Gamma)^-1 Gamma' Psi). The paper uses three
/// combinations; two or more are accepted. Throws std::invalid_argument for fewer than two, a
/// non-positive J_rotor_man, or a rank-deficient Gamma (all combinations with the same lumped
/// inertia).
TorqueConstantFit fitTorqueConstant(std::span<const PulleyExperiment> experiments, double J_rotor_man_kgm2);

// ---------------------------------------------------------------------------------------------
// Inertia lumping, Appendix B (34)-(40)

/// Pulley k of a serial chain. Pulley 0 is the motor pulley. The cable of pulley k (k >= 1) is
/// the one arriving on its input radius from pulley k-1; its inertia about pulley k is (36)
/// J_cable,k = r_{k,i}^2 rho_k l_k (the cable's mass at radius r_{k,i}).
struct Pulley {
  double r_in_m = 0.0;
  double r_out_m = 0.0;
  double J_kgm2 = 0.0;
  double cable_density_kg_m = 0.0;  ///< rho_k (ignored for pulley 0)
  double cable_length_m = 0.0;      ///< l_k (ignored for pulley 0)
};

struct LumpedInertia {
  double J_pulley_kgm2 = 0.0;    ///< (39)
  double J_cable_kgm2 = 0.0;     ///< (40)
  std::vector<double> ratio_sq;  ///< G_k = prod_{j=1..k} r_{j-1,o}^2 / r_{j,i}^2, G_0 = 1, (37)
};

/// (37)-(40): J_pulley = sum_k G_k J_k, J_cable = sum_{k>=1} G_k r_{k,i}^2 rho_k l_k, both as
/// seen from the motor pulley. Pulley 0 contributes J_0 with G_0 = 1; the paper's (39) sums from
/// k = 1, i.e. set chain[0].J_kgm2 = 0 to get it exactly (the motor pulley then belongs to the
/// rotor). The paper's (40) sums cables up to N-1: give the last pulley cable_length_m = 0 for
/// that. Throws std::invalid_argument for an empty chain or non-positive radii (pulley 0 needs
/// only r_out; the last pulley only r_in).
LumpedInertia lumpPulleyChain(std::span<const Pulley> chain);

// ---------------------------------------------------------------------------------------------
// Spring stiffness from static tests, (21)-(24)

/// (21) |tau_gravity| = |W sin(q_LS) / 2|, (23) |tau_gravity| = |2.59061 tau_Bsp|, (22)
/// tau_Bsp = K_B q_Bsp, hence (24) K_B = |W sin(q_LS) / (5.18043 q_Bsp)|. The paper's constant
/// 5.18043 in (24) (its gamma_LS->Bsp) is used as `ratio` by default; 2 x 2.59061 = 5.18122 would
/// follow from (21) and (23) literally, the 0.015 % difference is the paper's.
struct SpringTest {
  double q_LS_rad = 0.0;   ///< leg-shape angle (the paper: 10 to 30 deg)
  double q_Bsp_rad = 0.0;  ///< measured spring deflection
};

struct SpringStiffnessFit {
  double K_B_Nm_rad = 0.0;         ///< least-squares slope through the origin of tau_Bsp vs |q_Bsp|
  std::vector<double> tau_Bsp_Nm;  ///< |W sin(q_LS)| / ratio, per test
  std::vector<double> K_B_each;    ///< (24) per test
  double residual_rms_Nm = 0.0;    ///< rms of tau_Bsp - K_B |q_Bsp|
};

/// K_B = sum(tau_i |q_i|) / sum(q_i^2): the least-squares slope of (22) over all tests (which
/// weights large deflections more than averaging (24)). Throws std::invalid_argument for no test,
/// W <= 0, ratio <= 0 or all deflections zero.
SpringStiffnessFit fitSpringStiffness(std::span<const SpringTest> tests, double robot_weight_N, double ratio = 5.18043);

// ---------------------------------------------------------------------------------------------
// Logs

/// A chirp log: columns time_s, u_Nm, omega_rad_s (further columns ignored); time strictly
/// increasing and uniformly sampled (every step within 1 % of the median step).
struct ChirpLog {
  std::string source;
  std::vector<double> time_s, u_Nm, omega_rad_s;
  double sample_time_s = 0.0;  ///< median step
  /// Throws InputError(file, line, column, ...) on bad input (sim/csv_table.h), also for a
  /// non-uniform time step (naming the line of time_s).
  static ChirpLog read(const std::string& path);
};

}  // namespace gapsim::calib
